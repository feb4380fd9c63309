import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { createToken } from "../../src/core/tokens/tokens";
import type { Dialect } from "../../src/db/connect";
import { setLogLevel } from "../../src/server/log";
import { startApiServer } from "./api-server";
import { openTestStore, testCtx, type TestStore } from "./stores";

/** What a sentry-cli test needs: organization `acme` with JavaScript project `web`, the web API on a port, a release token, a work directory. */
export interface CliProject {
  store: TestStore;
  ctx: Ctx;
  api: { base: string; close(): Promise<void> };
  /** A personal token of the owner with `project:releases` and `org:read`. */
  token: string;
  orgId: number;
  projectId: number;
  work: string;
  close(): Promise<void>;
}

export async function openCliProject(dialect: Dialect): Promise<CliProject> {
  setLogLevel("warn");
  const store = await openTestStore(dialect);
  const ctx = testCtx(store);
  await createUser({ ctx, input: { email: "owner@example.com", password: "password-123" } });
  const org = await createOrganization({ ctx, input: { slug: "acme", owner: "owner@example.com" } });
  const { project } = await createProject({ ctx, input: { org: "acme", slug: "web", platform: "javascript" } });
  const api = await startApiServer(ctx);
  ctx.publicUrl = api.base;
  const { token } = await createToken({ ctx, input: { user: "owner@example.com", name: "ci", scopes: ["project:releases", "org:read"] } });
  const work = mkdtempSync(join(tmpdir(), "telltale-cli-"));
  return {
    store,
    ctx,
    api,
    token,
    orgId: org.id,
    projectId: project.id,
    work,
    async close() {
      await api.close();
      await store.cleanup();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
