import type { Ctx } from "../../src/core/context";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import type { Dialect } from "../../src/db/connect";
import { openTestStore, testCtx, type TestStore } from "../support/stores";

/** A migrated database with two organizations of one project each: what the contract suites write against. */
export interface SeededStore {
  store: TestStore;
  ctx: Ctx;
  organizationId: number;
  projectId: number;
  otherOrganizationId: number;
  otherProjectId: number;
}

export async function openSeededStore(dialect: Dialect): Promise<SeededStore> {
  const store = await openTestStore(dialect);
  const ctx = testCtx(store);
  const org = await createOrganization({ ctx, input: { slug: "contract" } });
  const other = await createOrganization({ ctx, input: { slug: "other" } });
  const projectId = (await createProject({ ctx, input: { org: "contract", slug: "p" } })).project.id;
  const otherProjectId = (await createProject({ ctx, input: { org: "other", slug: "p" } })).project.id;
  return { store, ctx, organizationId: org.id, projectId, otherOrganizationId: other.id, otherProjectId };
}
