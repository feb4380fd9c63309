import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaletteLookup } from "../../src/core/ports/palette-lookup";

/** What an organization holds for the lookup to find. */
export interface PaletteOrg {
  orgId: number;
  /** Its one project, slug `shop`, named "Web Shop" (in the other organization: `secret`). */
  projectId: number;
  /** An error event titled `title`, grouped into issue `issueId`, in trace `errorTraceId`. */
  eventId: string;
  issueId: number;
  title: string;
  errorTraceId: string;
  /** A transaction with one span, in trace `transactionTraceId`. */
  transactionTraceId: string;
}

export interface PaletteLookupFixture {
  store: PaletteLookup;
  /** The organization looked in; its issue is titled "payment declined by gateway". */
  mine: PaletteOrg;
  /** Another organization, whose data the lookup in `mine` never finds. */
  other: PaletteOrg;
  cleanup(): Promise<void>;
}

/** What every PaletteLookup (src/core/ports/palette-lookup.ts) does. */
export function paletteLookupContract(name: string, make: () => Promise<PaletteLookupFixture>): void {
  describe(name, () => {
    let f: PaletteLookupFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    it("finds an event by id in the organization only", async () => {
      const { mine, other } = f;
      expect(await f.store.eventsById(mine.orgId, mine.eventId, 8)).toEqual([
        { eventId: mine.eventId, issueId: mine.issueId, title: mine.title, project: "shop" },
      ]);
      expect(await f.store.eventsById(mine.orgId, other.eventId, 8)).toEqual([]);
    });

    it("knows a trace by its error events, transactions and spans, in the projects it is given", async () => {
      const { mine, other } = f;
      expect(await f.store.traceSeen(mine.orgId, null, mine.errorTraceId)).toBe(true);
      expect(await f.store.traceSeen(mine.orgId, null, mine.transactionTraceId)).toBe(true);
      expect(await f.store.traceSeen(mine.orgId, new Set([mine.projectId]), mine.transactionTraceId)).toBe(true);
      expect(await f.store.traceSeen(mine.orgId, new Set([other.projectId]), mine.errorTraceId)).toBe(false);
      expect(await f.store.traceSeen(mine.orgId, new Set(), mine.errorTraceId)).toBe(false);
      expect(await f.store.traceSeen(mine.orgId, null, other.errorTraceId)).toBe(false);
    });

    it("matches a project's slug or name by prefix, case-insensitively, with LIKE wildcards as text", async () => {
      const shop = [{ slug: "shop", name: "Web Shop" }];
      expect(await f.store.projectsByPrefix(f.mine.orgId, "WEB", 8)).toEqual(shop);
      expect(await f.store.projectsByPrefix(f.mine.orgId, "sh", 8)).toEqual(shop);
      expect(await f.store.projectsByPrefix(f.mine.orgId, "%", 8)).toEqual([]);
      expect(await f.store.projectsByPrefix(f.mine.orgId, "_hop", 8)).toEqual([]);
      expect(await f.store.projectsByPrefix(f.mine.orgId, "secret", 8)).toEqual([]);
      expect(await f.store.projectSlug(f.mine.projectId)).toBe("shop");
    });

    it("finds issues whose title words each start with a typed word", async () => {
      const { mine, other } = f;
      const issue = { id: mine.issueId, shortNumber: 1, title: mine.title, project: "shop" };
      expect(await f.store.issuesByTitleWords(mine.orgId, ["decl", "payment"], 8)).toEqual([issue]);
      expect(await f.store.issuesByTitleWords(mine.orgId, ["ayment"], 8)).toEqual([]);
      expect(await f.store.issuesByTitleWords(mine.orgId, other.title.toLowerCase().split(" "), 8)).toEqual([]);
      expect(await f.store.issuesByTitleWords(mine.orgId, [], 8)).toEqual([]);
    });
  });
}
