import { KyselyTelemetryReader } from "../../src/db/telemetry-read";
import { seedIssues } from "../support/issue-seeds";
import { DIALECTS } from "../support/stores";
import { seedProject } from "./seed-rows";
import { openSeededStore } from "./seeded-store";
import { telemetryReaderContract } from "./telemetry-read";

for (const dialect of DIALECTS)
  telemetryReaderContract(`Kysely on ${dialect}`, async () => {
    const { store, organizationId, projectId, otherProjectId } = await openSeededStore(dialect);
    const db = store.db;
    const second = await seedProject(db, organizationId, "second");
    const data = Buffer.from("{}");
    return {
      reader: new KyselyTelemetryReader(db),
      organizationId,
      projects: [projectId, second, otherProjectId],
      async issue(project) {
        const [id] = await seedIssues(db, project, [{}]);
        if (id === undefined) throw new Error("no issue seeded");
        return id;
      },
      async event(e) {
        await db
          .insertInto("events")
          .values({
            project_id: e.projectId,
            issue_id: e.issueId,
            grouping_hash: null,
            event_id: e.eventId,
            type: "error",
            timestamp: e.timestamp,
            received_at: e.timestamp * 1000,
            level: "error",
            title: "Error",
            release: null,
            environment: null,
            trace_id: e.traceId ?? null,
            data,
          })
          .execute();
      },
      async span(s) {
        const row = {
          project_id: s.projectId,
          trace_id: s.traceId,
          span_id: s.spanId,
          name: "GET /",
          op: "http.server",
          status: "ok",
          start_timestamp: s.startTimestamp,
          timestamp: s.startTimestamp + 1,
        };
        if (s.transaction)
          await db
            .insertInto("transactions")
            .values({ ...row, event_id: s.spanId.padEnd(32, "0"), received_at: 0, data })
            .execute();
        else
          await db
            .insertInto("spans")
            .values({ ...row, parent_span_id: null, segment_id: null, data: "{}" })
            .execute();
      },
      async attachment(project, eventId, name, chunks, complete) {
        const row = await db
          .insertInto("attachments")
          .values({
            project_id: project,
            event_id: eventId,
            name,
            content_type: "text/plain",
            attachment_type: "event.attachment",
            size: chunks.reduce((n, c) => n + c.length, 0),
            complete: complete ? 1 : 0,
            created_at: 0,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        for (const [seq, chunk] of chunks.entries())
          await db.insertInto("attachment_chunks").values({ attachment_id: row.id, seq, data: chunk }).execute();
        return row.id;
      },
      cleanup: () => store.cleanup(),
    };
  });
