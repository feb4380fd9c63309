/** Keyboard helpers shared by the palette and the issue stream's shortcuts. */

/** True while the user types: a shortcut letter must then reach the field, not fire. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !["checkbox", "radio", "button", "submit", "reset"].includes(target.type);
  return false;
}

/** True while a modal (the palette, the help) is open: page shortcuts wait until it closes. */
export const modalOpen = () => document.querySelector("dialog[open]") !== null;

/** The shortcuts, listed by the help overlay (`?`) in the order a user learns them. */
export const SHORTCUTS: { keys: string[]; what: string; where: string }[] = [
  { keys: ["Ctrl K", "⌘ K", "/"], what: "Search: short id, event id, trace id, project or issue title", where: "everywhere" },
  { keys: ["?"], what: "Show these shortcuts", where: "everywhere" },
  { keys: ["j", "k"], what: "Select the next or previous issue", where: "issue stream" },
  { keys: ["Enter", "o"], what: "Open the selected issue", where: "issue stream" },
  { keys: ["r"], what: "Resolve the selected issue", where: "issue stream" },
  { keys: ["i"], what: "Ignore the selected issue", where: "issue stream" },
  { keys: ["e"], what: "Assign the selected issue to me", where: "issue stream" },
];
