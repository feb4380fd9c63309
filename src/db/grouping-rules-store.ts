import type { Kysely } from "kysely";
import type { GroupingRuleStore } from "../core/ports/grouping-rules";
import type { DB } from "./schema";

/** Fingerprint rules over the main database (src/core/ports/grouping-rules.ts), in `project_grouping`. */
export class KyselyGroupingRuleStore implements GroupingRuleStore {
  constructor(private readonly db: Kysely<DB>) {}

  async text(projectId: number): Promise<string> {
    const row = await this.db
      .selectFrom("project_grouping")
      .select("fingerprint_rules")
      .where("project_id", "=", projectId)
      .executeTakeFirst();
    return row?.fingerprint_rules ?? "";
  }

  async save(projectId: number, text: string): Promise<void> {
    // The row also numbers the project's issues (src/db/issue-store.ts): one made here starts at 1.
    await this.db
      .insertInto("project_grouping")
      .values({ project_id: projectId, fingerprint_rules: text, next_short_number: 1 })
      .onConflict((oc) => oc.column("project_id").doUpdateSet({ fingerprint_rules: text }))
      .execute();
  }
}
