import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import type { Project } from "../projects/project";
import type { Ctx } from "../context";
import { createOrganization } from "../orgs/create-org";
import { createProject } from "../projects/create-project";
import { createKey, listKeys, rotateKey, setKeyActive } from "./manage";

describe.each(DIALECTS)("project keys on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let n = 0;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createOrganization({ ctx, input: { slug: "acme" } });
  });
  afterAll(() => store.cleanup());

  const newProject = async (): Promise<Project> => (await createProject({ ctx, input: { org: "acme", slug: `p${++n}` } })).project;
  const keyRow = (id: number) => store.db.selectFrom("project_keys").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("creates an active key with a trimmed label and a fresh key pair", async () => {
    const project = await newProject();
    const key = await createKey({ ctx, input: { project, label: "  Mobile app " } });
    expect(key).toMatchObject({ project_id: project.id, label: "Mobile app", is_active: 1 });
    expect(key.public_key).toMatch(/^[0-9a-f]{32}$/);
    const [first] = await listKeys(ctx, project);
    expect(first?.public_key).not.toBe(key.public_key);
  });

  it("refuses an empty label as invalid input", async () => {
    const project = await newProject();
    await expect(createKey({ ctx, input: { project, label: "   " } })).rejects.toMatchObject({
      code: "invalid_input",
      message: "give the key a name",
    });
  });

  it("refuses to change another project's key, as not found", async () => {
    const project = await newProject();
    const other = await newProject();
    const [foreign] = await listKeys(ctx, other);
    await expect(setKeyActive({ ctx, input: { project, keyId: foreign!.id, active: false } })).rejects.toMatchObject({ code: "not_found" });
    await expect(rotateKey({ ctx, input: { project, keyId: foreign!.id } })).rejects.toMatchObject({ code: "not_found" });
    expect((await keyRow(foreign!.id)).is_active).toBe(1);
    expect(await listKeys(ctx, project)).toHaveLength(1);
  });

  it("rotates a key: the old one is disabled and a new active one takes its label and limits", async () => {
    const project = await newProject();
    const old = await createKey({ ctx, input: { project, label: "Backend" } });
    await store.db
      .updateTable("project_keys")
      .set({ rate_limit_count: 100, rate_limit_window_seconds: 60 })
      .where("id", "=", old.id)
      .execute();
    const fresh = await rotateKey({ ctx, input: { project, keyId: old.id } });
    expect(fresh).toMatchObject({
      project_id: project.id,
      label: "Backend",
      is_active: 1,
      rate_limit_count: 100,
      rate_limit_window_seconds: 60,
    });
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.public_key).not.toBe(old.public_key);
    expect(fresh.secret_key).not.toBe(old.secret_key);
    expect(await keyRow(old.id)).toMatchObject({ is_active: 0, public_key: old.public_key, label: "Backend" });
  });
});
