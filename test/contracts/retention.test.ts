import { writeIssueChanges } from "../../src/db/issue-changes";
import { encodePayload } from "../../src/core/storage/payload";
import { KyselyRetentionStore } from "../../src/db/retention-store";
import { seedIssues } from "../support/issue-seeds";
import { DIALECTS } from "../support/stores";
import { retentionStoreContract } from "./retention";
import { openSeededStore } from "./seeded-store";

let eventNumber = 0;

for (const dialect of DIALECTS)
  retentionStoreContract(`Kysely on ${dialect}`, async () => {
    const { store, projectId, otherProjectId } = await openSeededStore(dialect);
    const { db } = store;
    const count = async (q: { execute(): Promise<unknown[]> }) => (await q.execute()).length;
    return {
      store: new KyselyRetentionStore(db, dialect),
      projectId,
      otherProjectId,
      async addLogs(project, times) {
        const rows = times.map((t) => ({ project_id: project, timestamp: t / 1000, level: "info", body: "", trace_id: null, data: "{}" }));
        await db.insertInto("logs").values(rows).execute();
      },
      async addRawItems(project, times, bytes = 1) {
        const payload = Buffer.alloc(bytes, 0x78);
        const rows = times.map((t) => ({ project_id: project, type: "profile", event_id: null, received_at: t, payload }));
        await db.insertInto("raw_items").values(rows).execute();
      },
      logTimes: async (project) =>
        (await db.selectFrom("logs").select("timestamp").where("project_id", "=", project).orderBy("timestamp").execute()).map(
          (r) => r.timestamp * 1000,
        ),
      rawItemTimes: async (project) =>
        (await db.selectFrom("raw_items").select("received_at").where("project_id", "=", project).orderBy("received_at").execute()).map(
          (r) => r.received_at,
        ),
      async addIssue(project, firstSeen, timesSeen) {
        const [id = 0] = await seedIssues(db, project, [{ first_seen: firstSeen, last_seen: firstSeen, times_seen: timesSeen }]);
        return id;
      },
      async addEvents(project, issueId, times) {
        const rows = times.map((t) => ({
          project_id: project,
          issue_id: issueId,
          grouping_hash: issueId === null ? null : "h",
          event_id: String(++eventNumber).padStart(32, "0"),
          type: "event",
          timestamp: t / 1000,
          received_at: t,
          level: "error",
          title: "E",
          release: null,
          environment: null,
          trace_id: null,
          data: encodePayload("{}"),
        }));
        await db.insertInto("events").values(rows).execute();
      },
      async eventTimes(project, issueId) {
        const q = db.selectFrom("events").select("timestamp").where("project_id", "=", project);
        const rows = await (issueId === null ? q.where("issue_id", "is", null) : q.where("issue_id", "=", issueId))
          .orderBy("timestamp")
          .execute();
        return rows.map((r) => r.timestamp * 1000);
      },
      async addHourly(project, issueId, hours) {
        for (const hour of hours) {
          await db
            .insertInto("outcomes")
            .values({ project_id: project, hour, category: "error", outcome: "accepted", reason: "", quantity: 1 })
            .execute();
          await db
            .insertInto("session_counts")
            .values({ project_id: project, hour, release: "r", environment: "", status: "ok", quantity: 1 })
            .execute();
          await db
            .insertInto("session_distinct")
            .values({ project_id: project, kind: "user", bucket: hour, release: "r", environment: "", member: "m", worst: 0 })
            .execute();
          await db.insertInto("issue_hourly").values({ issue_id: issueId, hour, count: 1 }).execute();
          await db.insertInto("issue_hour_users").values({ issue_id: issueId, hour, user_key: "u" }).execute();
        }
      },
      hourly: async (project, issueId) => ({
        outcomes: await count(db.selectFrom("outcomes").select("hour").where("project_id", "=", project)),
        session_counts: await count(db.selectFrom("session_counts").select("hour").where("project_id", "=", project)),
        session_distinct: await count(db.selectFrom("session_distinct").select("bucket").where("project_id", "=", project)),
        issue_hourly: await count(db.selectFrom("issue_hourly").select("hour").where("issue_id", "=", issueId)),
        issue_hour_users: await count(db.selectFrom("issue_hour_users").select("hour").where("issue_id", "=", issueId)),
      }),
      async addChanges(project, issueId, times, position) {
        const changes = times.map((at) => ({ projectId: project, issueId, kind: "commented" as const, data: {}, userId: null, at }));
        await db.transaction().execute((trx) => writeIssueChanges(trx, changes));
        await db.deleteFrom("outbox_positions").execute();
        await db.insertInto("outbox_positions").values({ consumer: "contract", seq: position, updated_at: 0 }).execute();
      },
      changeSeqs: async () => (await db.selectFrom("issue_changes").select("seq").orderBy("seq").execute()).map((r) => Number(r.seq)),
      async addDeadLetter(project, createdAt) {
        await db
          .insertInto("dead_letters")
          .values({
            project_id: project,
            key_id: 0,
            received_at: createdAt,
            created_at: createdAt,
            item_types: "event",
            size: 2,
            reason: "r",
            excerpt: "",
            body: Buffer.from("{}"),
          })
          .execute();
      },
      deadLetterBodies: async (project) =>
        (
          await db
            .selectFrom("dead_letters")
            .select((eb) => eb.fn<number>("length", ["body"]).as("n"))
            .where("project_id", "=", project)
            .orderBy("created_at")
            .execute()
        ).map((r) => Number(r.n)),
      cleanup: () => store.cleanup(),
    };
  });
