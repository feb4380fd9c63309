/** Building, reading and hashing explanation trees. */
import * as nodeCrypto from "node:crypto";
import type { GroupingComponent } from "./types";

export function component(id: string, values: Array<GroupingComponent | string>, hint: string | null = null): GroupingComponent {
  return { id, contributes: values.length > 0, hint, values };
}

/** A node that is shown but left out of the hash, with the reason. */
export function ignored(node: GroupingComponent, hint: string): GroupingComponent {
  node.contributes = false;
  node.hint = hint;
  return node;
}

/** A container contributes when any of its child components does. */
export function parent(id: string, children: GroupingComponent[], hint: string | null = null): GroupingComponent {
  return { id, contributes: children.some((c) => c.contributes), hint, values: children };
}

/** The strings that were hashed: contributing leaves under contributing nodes, in tree order. */
export function contributingValues(node: GroupingComponent): string[] {
  const out: string[] = [];
  const walk = (n: GroupingComponent): void => {
    if (!n.contributes) return;
    for (const v of n.values) {
      if (typeof v === "string") out.push(v);
      else walk(v);
    }
  };
  walk(node);
  return out;
}

/**
 * md5 over the values, NUL-separated so `["ab", "c"]` and `["a", "bc"]` differ. Sentry hashes
 * the contributing values with md5 too (docs/protocol.md#grouping); the separator is Telltale's.
 */
export function hashValues(values: readonly string[]): string {
  const text = values.join("\u0000");
  return oneShotHash ? oneShotHash("md5", text, "hex") : nodeCrypto.createHash("md5").update(text, "utf8").digest("hex");
}

/**
 * `crypto.hash` (Node 20.12 and later) hashes without building a Hash object; `engines` promises
 * 20.9, which has only `createHash`. The same md5 either way.
 */
const oneShotHash = (nodeCrypto as { hash?: typeof nodeCrypto.hash }).hash;

/** The first contributing node with this id, depth first (for tests and summaries). */
export function findComponent(node: GroupingComponent, id: string): GroupingComponent | undefined {
  if (node.id === id) return node;
  for (const v of node.values) {
    if (typeof v === "string") continue;
    const found = findComponent(v, id);
    if (found) return found;
  }
  return undefined;
}
