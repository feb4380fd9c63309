import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import { createUser } from "../accounts/create-user";
import type { User } from "../accounts/user";
import type { Ctx } from "../context";
import { createToken, userForToken } from "./tokens";

describe.each(DIALECTS)("API tokens on %s", (dialect) => {
  let store: TestStore;
  let clock: number;
  let ctx: Ctx;
  let user: User;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    clock = Date.UTC(2025, 0, 1);
    ctx = testCtx(store, { now: () => clock });
    user = await createUser({ ctx, input: { email: "api@example.com", password: "api user password" } });
  });
  afterAll(() => store.cleanup());

  const tokenRow = (id: number) => store.db.selectFrom("api_tokens").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("returns the token once and stores only its hash and a short prefix", async () => {
    const { id, token } = await createToken({ ctx, input: { user: "API@example.com", name: "deploys" } });
    // Sentry's user token shape, which sentry-cli recognises (src/utils/auth_token in its source).
    expect(token).toMatch(/^sntryu_[0-9a-f]{64}$/);
    const row = await tokenRow(id);
    expect(row).toMatchObject({
      user_id: user.id,
      name: "deploys",
      token_prefix: token.slice(0, 13),
      created_at: clock,
      last_used_at: null,
    });
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    for (const value of Object.values(row)) expect(String(value)).not.toContain(token.slice(7));
  });

  it("names a token 'CLI token' by default", async () => {
    const { id } = await createToken({ ctx, input: { user: "api@example.com" } });
    expect((await tokenRow(id)).name).toBe("CLI token");
  });

  it("refuses a token for an unknown user as not found", async () => {
    await expect(createToken({ ctx, input: { user: "ghost@example.com" } })).rejects.toMatchObject({
      code: "not_found",
      message: "user 'ghost@example.com' does not exist",
    });
  });

  it("resolves a token to its user, and names the token (for the audit log)", async () => {
    const { id, token } = await createToken({ ctx, input: { user: "api@example.com" } });
    expect(await userForToken(ctx, token)).toEqual({ user, scopes: null, organizationId: null, tokenId: id });
  });

  it("still resolves a personal token of the earlier tlt_ shape", async () => {
    const token = `tlt_${"ab".repeat(32)}`;
    const hash = createHash("sha256").update(token).digest("hex");
    const row = {
      userId: user.id,
      organizationId: null,
      name: "old",
      prefix: token.slice(0, 10),
      hash,
      createdAt: clock,
      scopes: null,
      expiresAt: null,
    };
    const id = await ctx.tokens.add(row);
    expect(await userForToken(ctx, token)).toEqual({ user, scopes: null, organizationId: null, tokenId: id });
  });

  it.each([
    ["an unknown token", `sntryu_${"0".repeat(64)}`],
    ["an unknown token of the earlier shape", `tlt_${"0".repeat(64)}`],
    ["a token without the prefix", "0".repeat(68)],
    ["an oversized token", `sntryu_${"a".repeat(400)}`],
    ["an empty string", ""],
  ])("resolves %s to no user", async (_what, token) => {
    expect(await userForToken(ctx, token)).toBeNull();
  });

  it("records use at most once a minute", async () => {
    const { id, token } = await createToken({ ctx, input: { user: "api@example.com" } });
    const start = clock;
    await userForToken(ctx, token);
    expect((await tokenRow(id)).last_used_at).toBe(start);
    clock = start + 60_000;
    await userForToken(ctx, token);
    expect((await tokenRow(id)).last_used_at).toBe(start);
    clock = start + 60_001;
    await userForToken(ctx, token);
    expect((await tokenRow(id)).last_used_at).toBe(start + 60_001);
  });
});
