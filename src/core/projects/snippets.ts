import { javascriptGuides } from "./guides/javascript";
import { mobileGuides } from "./guides/mobile";
import { serverGuides } from "./guides/server";
import type { Snippet } from "./guides/snippet";

export type { Snippet, Verified } from "./guides/snippet";

/** Every guide, in the order the tabs show them. */
export function snippets(dsn: string): Snippet[] {
  return [...javascriptGuides(dsn), ...serverGuides(dsn), ...mobileGuides(dsn)];
}
