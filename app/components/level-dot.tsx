/**
 * The coloured dot for an event level. The level goes in `data-level`, not in a class: a class
 * named `error` would also pick up the `.error` alert-box style (padding, border, margin) and
 * turn the 8 px dot into a red pill on a line of its own.
 */
export function LevelDot({ level }: { level: string | null | undefined }) {
  const name = level ?? "info";
  return <span className="level-dot" data-level={name} role="img" aria-label={`level ${name}`} data-testid="level-dot" />;
}
