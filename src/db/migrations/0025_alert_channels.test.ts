import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import { createOrganization } from "../../core/orgs/create-org";
import { createProject } from "../../core/projects/create-project";
import { m0025 } from "./0025_alert_channels";

/**
 * Migration 0025 on a database with rules and email notifications from before it: each rule
 * gets its own signing secret, each notification is an email to the address it had. Dropping
 * the columns 0025 adds and running it again stands in for upgrading such a database.
 */
describe.each(DIALECTS)("migration 0025 (alert channels) on %s", (dialect) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createOrganization({ ctx, input: { slug: "before" } });
    for (const slug of ["a", "b"]) await createProject({ ctx, input: { org: "before", slug } });
    const rule = await store.db.selectFrom("alert_rules").select(["id", "project_id"]).orderBy("id").executeTakeFirstOrThrow();
    await store.db
      .insertInto("alert_notifications")
      .values({
        id: "issue-change-1.rule-1.user-1",
        project_id: rule.project_id,
        rule_id: rule.id,
        issue_id: 1,
        change_seq: 1,
        change_kind: "created",
        user_id: 1,
        email: "old@example.com",
        status: "sent",
        attempts: 1,
        next_attempt_at: 0,
        created_at: 0,
      })
      .execute();
    await store.db.schema.alterTable("alert_notifications").dropColumn("channel").execute();
    await store.db.schema.alterTable("alert_notifications").dropColumn("target").execute();
    await store.db.schema.alterTable("alert_rules").dropColumn("secret").execute();
    for (const column of ["status_code", "response", "duration_ms"])
      await store.db.schema.alterTable("alert_attempts").dropColumn(column).execute();
    await m0025.up(store.db, dialect);
  });
  afterAll(() => store.cleanup());

  it("gives every existing rule a secret of its own", async () => {
    const secrets = (await store.db.selectFrom("alert_rules").select("secret").execute()).map((r) => r.secret);
    expect(secrets).toHaveLength(2);
    for (const s of secrets) expect(s).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(secrets).size).toBe(2);
  });

  it("makes existing notifications emails to the address they had", async () => {
    const notes = await testCtx(store).alerts.notifications({});
    expect(notes.map((n) => [n.channel, n.target, n.userId])).toEqual([["email", "old@example.com", 1]]);
  });
});
