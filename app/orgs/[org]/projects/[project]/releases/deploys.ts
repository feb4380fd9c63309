/** Latest deploy per environment, newest first (a release's deploys as Sentry shows them). */
export function latestPerEnvironment<T extends { environment: string; dateFinished: number }>(deploys: readonly T[]): T[] {
  const byEnv = new Map<string, T>();
  for (const d of deploys) {
    const seen = byEnv.get(d.environment);
    if (!seen || d.dateFinished > seen.dateFinished) byEnv.set(d.environment, d);
  }
  return [...byEnv.values()].sort((a, b) => b.dateFinished - a.dateFinished);
}
