import { generateKeyPair } from "../../core/keys/generate";
import type { Migration } from "./helpers";
import { INTERNAL_ORG_SLUG, INTERNAL_PROJECT_SLUG } from "../../core/selfmon/internal-project";

export { INTERNAL_ORG_SLUG, INTERNAL_PROJECT_SLUG };

/**
 * The organization and project Telltale reports its own errors and traces to when
 * TELLTALE_SELF_DSN is unset (PRODUCT.md fact 2). Created here so that every database,
 * including a fresh one, can receive self-monitoring events from the first request.
 */
export const m0002: Migration = {
  async up(db) {
    const now = Date.now();
    const org = await db
      .insertInto("organizations")
      .values({ slug: INTERNAL_ORG_SLUG, name: "Telltale (internal)", is_internal: 1, created_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    const project = await db
      .insertInto("projects")
      .values({ organization_id: org.id, slug: INTERNAL_PROJECT_SLUG, name: "Telltale", platform: "javascript-nextjs", created_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    const { publicKey, secretKey } = generateKeyPair();
    await db
      .insertInto("project_keys")
      .values({
        project_id: project.id,
        label: "Self-monitoring",
        public_key: publicKey,
        secret_key: secretKey,
        is_active: 1,
        created_at: now,
      })
      .execute();
  },
};
