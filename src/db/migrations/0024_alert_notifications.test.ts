import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import { ALERTS_CONSUMER } from "../../core/alerts/consumer";
import { createOrganization } from "../../core/orgs/create-org";
import { writeIssueChanges } from "../issue-changes";
import { m0023 } from "./0023_alert_rules";
import { m0024 } from "./0024_alert_notifications";

/**
 * Migrations 0023 and 0024 on a database that already has projects and issue changes: no
 * project is given a rule, and the alerts consumer starts at the outbox's head, so changes made
 * before alerts existed notify nobody. Rewinding the migrations (dropping their tables and
 * running them again over older rows) stands in for upgrading such a database.
 */
describe.each(DIALECTS)("migrations 0023 and 0024 (alerts) on %s", (dialect) => {
  let store: TestStore;
  let projectId = 0;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    const org = await createOrganization({ ctx, input: { slug: "before" } });
    // A project as one stood before alerts: created without the default rule.
    projectId = (
      await store.db
        .insertInto("projects")
        .values({ organization_id: org.id, slug: "old", name: "old", platform: "node", created_at: Date.now() })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    await store.db.transaction().execute((trx) =>
      writeIssueChanges(trx, [
        { projectId, issueId: 1, kind: "created", data: {}, userId: null, at: Date.now() },
        { projectId, issueId: 2, kind: "created", data: {}, userId: null, at: Date.now() },
      ]),
    );
    for (const table of ["alert_attempts", "alert_notifications", "alert_rule_fires", "alert_rules"])
      await store.db.schema.dropTable(table).execute();
    await store.db.deleteFrom("outbox_positions").where("consumer", "=", ALERTS_CONSUMER).execute();
    await m0023.up(store.db, dialect);
    await m0024.up(store.db, dialect);
  });
  afterAll(() => store.cleanup());

  it("gives existing projects no rule", async () => {
    expect(await store.db.selectFrom("alert_rules").selectAll().execute()).toEqual([]);
  });

  it("starts the alerts consumer after the changes already in the outbox", async () => {
    const head = await store.db.selectFrom("outbox_counter").select("seq").where("id", "=", 1).executeTakeFirstOrThrow();
    const position = await store.db
      .selectFrom("outbox_positions")
      .select("seq")
      .where("consumer", "=", ALERTS_CONSUMER)
      .executeTakeFirstOrThrow();
    expect(Number(head.seq)).toBeGreaterThanOrEqual(2);
    expect(Number(position.seq)).toBe(Number(head.seq));
  });
});
