import { EVENT_FREQUENCY } from "../../src/core/alerts/frequency-conditions";
import { KyselyIssueStore } from "../../src/db/issue-store";
import { MemoryIssueStore } from "../support/memory-issues";
import { DIALECTS } from "../support/stores";
import { issueStoreContract } from "./issues";
import { openSeededStore } from "./seeded-store";

issueStoreContract("in memory", async () => {
  const store = new MemoryIssueStore();
  const issue = (id: number) => {
    const found = store.issues.get(id);
    if (!found) throw new Error(`no issue ${id}`);
    return found;
  };
  return {
    within: (work) => work(store),
    projects: [1, 2],
    countEvents: async (projectId) => void store.countingProjects.add(projectId),
    text: async (id) => {
      const { title, culprit, level, metadata } = issue(id);
      return { title, culprit, level, metadata };
    },
    tags: async (issueId) =>
      [...store.tags].flatMap(([key, t]) => {
        const [id, tagKey = "", value = ""] = key.split("\u0000");
        return Number(id) === issueId ? [{ key: tagKey, value, ...t }] : [];
      }),
    hours: async (issueId) =>
      new Map(
        [...store.hours].flatMap(([key, count]) => {
          const [id, hour] = key.split("\u0000").map(Number);
          return id === issueId && hour !== undefined ? [[hour, count] as const] : [];
        }),
      ),
    cleanup: async () => {},
  };
});

for (const dialect of DIALECTS)
  issueStoreContract(`Kysely on ${dialect}`, async () => {
    const { store, projectId, otherProjectId } = await openSeededStore(dialect);
    const db = store.db;
    return {
      within: (work) => db.transaction().execute((trx) => work(new KyselyIssueStore(trx, dialect === "postgres"))),
      projects: [projectId, otherProjectId],
      async countEvents(project) {
        await db
          .insertInto("alert_rules")
          .values({
            project_id: project,
            name: "often",
            action_match: "all",
            filter_match: "all",
            frequency: 30,
            environment: null,
            conditions: JSON.stringify([{ id: EVENT_FREQUENCY, value: 10, interval: "1h" }]),
            filters: "[]",
            actions: "[]",
            status: "active",
            created_by: null,
            created_at: 0,
            updated_at: 0,
            secret: null,
          })
          .execute();
      },
      text: (id) =>
        db.selectFrom("issues").select(["title", "culprit", "level", "metadata"]).where("id", "=", id).executeTakeFirstOrThrow(),
      async tags(issueId) {
        const rows = await db.selectFrom("issue_tags").selectAll().where("issue_id", "=", issueId).execute();
        return rows.map((r) => ({ key: r.key, value: r.value, count: r.times_seen, firstSeen: r.first_seen, lastSeen: r.last_seen }));
      },
      async hours(issueId) {
        const rows = await db.selectFrom("issue_hourly").select(["hour", "count"]).where("issue_id", "=", issueId).execute();
        return new Map(rows.map((r) => [r.hour, r.count]));
      },
      cleanup: () => store.cleanup(),
    };
  });
