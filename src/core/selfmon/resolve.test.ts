import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import { resolveSelfMonitoring } from "./resolve";

describe.each(DIALECTS)("resolveSelfMonitoring on %s", (dialect) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore(dialect);
  });
  afterAll(async () => {
    await store.cleanup();
  });

  it("targets the internal project over loopback when reporting to itself", async () => {
    const target = await resolveSelfMonitoring(testCtx(store), { mode: "self" }, "http://127.0.0.1:8000", "/api/telltale/tunnel/");
    const key = await store.db
      .selectFrom("project_keys")
      .innerJoin("projects", "projects.id", "project_keys.project_id")
      .select(["public_key", "projects.id as projectId"])
      .where("projects.slug", "=", "telltale")
      .executeTakeFirstOrThrow();
    expect(target).toEqual({
      serverDsn: `http://${key.public_key}@127.0.0.1:8000/${key.projectId}`,
      browserDsn: `http://${key.public_key}@telltale.test:8000/${key.projectId}`,
      tunnel: `/api/${key.projectId}/envelope/?sentry_version=7&sentry_key=${key.public_key}`,
      internal: true,
    });
  });

  it("uses the same-origin tunnel for an external DSN", async () => {
    const dsn = "https://abc123@errors.example.com/7";
    await expect(
      resolveSelfMonitoring(testCtx(store), { mode: "dsn", dsn }, "http://127.0.0.1:8000", "/api/telltale/tunnel/"),
    ).resolves.toEqual({
      serverDsn: dsn,
      browserDsn: dsn,
      tunnel: "/api/telltale/tunnel/",
      internal: false,
    });
  });

  it("reports nowhere when switched off, or when every internal key is disabled", async () => {
    await expect(resolveSelfMonitoring(testCtx(store), { mode: "off" }, "http://127.0.0.1:8000", "/t/")).resolves.toBeNull();
    await store.db.updateTable("project_keys").set({ is_active: 0 }).execute();
    await expect(resolveSelfMonitoring(testCtx(store), { mode: "self" }, "http://127.0.0.1:8000", "/t/")).resolves.toBeNull();
  });
});
