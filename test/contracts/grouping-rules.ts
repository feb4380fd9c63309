import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GroupingRuleStore } from "../../src/core/ports/grouping-rules";

export interface GroupingRulesWorld {
  rules: GroupingRuleStore;
  /** Two projects that have no rules yet. */
  projectIds: [number, number];
  cleanup(): Promise<void>;
}

/** What every GroupingRuleStore (src/core/ports/grouping-rules.ts) keeps, whatever stores it. */
export function groupingRulesContract(name: string, make: () => Promise<GroupingRulesWorld>): void {
  describe(`GroupingRuleStore contract: ${name}`, () => {
    let w: GroupingRulesWorld;
    beforeAll(async () => {
      w = await make();
    });
    afterAll(() => w.cleanup());

    it("has no rules for a project until saved, then the text last saved, per project", async () => {
      const [a, b] = w.projectIds;
      expect(await w.rules.text(a)).toBe("");
      await w.rules.save(a, 'message:"Payment*" -> payments');
      await w.rules.save(a, "type:TimeoutError -> timeouts");
      expect(await w.rules.text(a)).toBe("type:TimeoutError -> timeouts");
      expect(await w.rules.text(b)).toBe("");
      await w.rules.save(a, "");
      expect(await w.rules.text(a)).toBe("");
    });
  });
}
