import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { recordDeadLetter } from "../../src/core/deadletters/record";
import { NOT_ALLOWED } from "../../src/core/permissions/table";
import type { Ctx } from "../../src/core/context";
import type { User } from "../../src/db/schema";
import { errorEnvelope, newEventId } from "../support/envelopes";
import { openDigestBench, type DigestBench } from "../support/digest";
import { DIALECTS } from "../support/stores";

/** The request the actions run in: who is signed in, and the store they talk to. */
const request = vi.hoisted(() => ({ user: null as User | null, ctx: null as Ctx | null }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("../../app/lib/auth", () => ({
  requireUser: () => {
    if (!request.user) throw new Error("test: nobody signed in");
    return Promise.resolve(request.user);
  },
  // The action wrapper records the client address in the audit log.
  clientIp: async () => "127.0.0.1",
}));
vi.mock("../../app/lib/app-runtime", () => ({
  ctx: () => {
    if (!request.ctx) throw new Error("test: no store");
    return request.ctx;
  },
}));
const { deleteDeadLetterAction, retryDeadLetterAction } = await import("../../app/actions/dead-letters");

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

/** The Retry and Delete server actions answer a typed result; a refusal is a result, never a throw. */
describe.each(DIALECTS)("dead letter server actions on %s", (dialect) => {
  let bench: DigestBench;
  let owner: User;
  let member: User;
  let org = "";
  let letterId = 0;

  beforeAll(async () => {
    bench = await openDigestBench(dialect);
    request.ctx = bench.ctx;
    const organization = await bench.store.db
      .selectFrom("projects")
      .innerJoin("organizations", "organizations.id", "projects.organization_id")
      .select(["organizations.id", "organizations.slug"])
      .where("projects.id", "=", bench.projectId)
      .executeTakeFirstOrThrow();
    org = organization.slug;
    owner = await bench.store.db
      .selectFrom("users")
      .innerJoin("memberships", "memberships.user_id", "users.id")
      .selectAll("users")
      .where("memberships.organization_id", "=", organization.id)
      .executeTakeFirstOrThrow();
    const { createUser } = await import("../../src/core/accounts/create-user");
    member = await createUser({ ctx: bench.ctx, input: { email: `member-${dialect}@example.com`, password: "password-123" } });
    await bench.store.db
      .insertInto("memberships")
      .values({ organization_id: organization.id, user_id: member.id, role: "member", created_at: 0 })
      .execute();
    await recordDeadLetter(
      bench.ctx.deadLetters,
      {
        projectId: bench.projectId,
        keyId: 0,
        receivedAt: Date.now(),
        body: errorEnvelope(newEventId(), "x"),
        itemTypes: ["event"],
        reason: "test",
        scrubbing: {},
      },
      Date.now(),
    );
    letterId = (await bench.store.db.selectFrom("dead_letters").select("id").executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => bench.store.cleanup());

  it("answers a member 'not allowed' and changes nothing", async () => {
    request.user = member;
    for (const action of [retryDeadLetterAction, deleteDeadLetterAction]) {
      await expect(action({}, form({ org, id: String(letterId) }))).resolves.toEqual({ error: NOT_ALLOWED, code: "forbidden" });
    }
    expect(await bench.store.db.selectFrom("dead_letters").select("id").execute()).toHaveLength(1);
  });

  it("answers 'does not exist' for another organization, an unknown id or a malformed one", async () => {
    request.user = member;
    await expect(deleteDeadLetterAction({}, form({ org: "nope", id: String(letterId) }))).resolves.toMatchObject({ code: "not_found" });
    request.user = owner;
    await expect(deleteDeadLetterAction({}, form({ org, id: String(letterId + 999) }))).resolves.toMatchObject({
      code: "not_found",
      error: expect.stringContaining("does not exist"),
    });
    await expect(retryDeadLetterAction({}, form({ org, id: "1e3; drop" }))).resolves.toMatchObject({ code: "not_found" });
  });

  it("lets an owner delete", async () => {
    request.user = owner;
    await expect(deleteDeadLetterAction({}, form({ org, id: String(letterId) }))).resolves.toEqual({ notice: "Deleted." });
    expect(await bench.store.db.selectFrom("dead_letters").select("id").execute()).toEqual([]);
  });
});
