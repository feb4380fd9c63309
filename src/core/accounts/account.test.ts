import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import type { User } from "./user";
import type { Ctx } from "../context";
import { changePassword } from "./change-password";
import { createUser } from "./create-user";
import { hashSessionToken, login } from "./login";
import { describeUserAgent, endSessions, LAST_SEEN_EVERY_MS, listSessions, revokeSession, userForSession } from "./sessions";

const PASSWORD = "the first password";
const CHROME_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

describe.each(DIALECTS)("the account page's core on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let clock: number;
  let n = 0;
  let user: User;

  const signIn = (userAgent = CHROME_MAC, password = PASSWORD, ip = `10.30.${n}.1`) =>
    login({ ctx, input: { email: user.email, password, ip, userAgent } });

  beforeAll(async () => {
    store = await openTestStore(dialect);
    clock = Date.UTC(2026, 0, 1);
    ctx = testCtx(store, { now: () => clock });
  });
  afterAll(() => store.cleanup());
  beforeEach(async () => {
    n++;
    user = await createUser({ ctx, input: { email: `user${n}@example.com`, password: PASSWORD } });
  });

  describe("change password", () => {
    it("needs the current password, and keeps this session while ending the others", async () => {
      const here = await signIn();
      const there = await signIn(SAFARI_IPHONE);
      await changePassword({ ctx, user, input: { current: PASSWORD, password: "the second password", sessionToken: here.token } });
      expect((await userForSession(ctx, here.token))?.id).toBe(user.id);
      expect(await userForSession(ctx, there.token)).toBeNull();
      await expect(signIn(CHROME_MAC, PASSWORD)).rejects.toMatchObject({ code: "unauthenticated" });
      await expect(signIn(CHROME_MAC, "the second password")).resolves.toMatchObject({ user: { id: user.id } });
    });

    it("refuses a wrong current password and a short new one, changing nothing", async () => {
      const here = await signIn();
      const there = await signIn(SAFARI_IPHONE);
      await expect(
        changePassword({ ctx, user, input: { current: "not it at all", password: "the second password", sessionToken: here.token } }),
      ).rejects.toMatchObject({ code: "invalid_input", details: { fields: { current: "the current password is wrong" } } });
      await expect(
        changePassword({ ctx, user, input: { current: PASSWORD, password: "short", sessionToken: here.token } }),
      ).rejects.toMatchObject({
        code: "invalid_input",
        message: /at least 8 characters/,
      });
      expect(await userForSession(ctx, there.token)).not.toBeNull();
      await expect(signIn(CHROME_MAC, PASSWORD)).resolves.toMatchObject({ user: { id: user.id } });
    });
  });

  it("throttles guesses of the current password past the sign-in limit, even the right one", async () => {
    const here = await signIn();
    const attempt = (current: string) =>
      changePassword({ ctx, user, input: { current, password: "the second password", sessionToken: here.token } });
    for (let i = 0; i < ctx.limits.loginMaxFailures; i++)
      await expect(attempt(`guess ${i}`)).rejects.toMatchObject({ code: "invalid_input" });
    await expect(attempt(PASSWORD)).rejects.toMatchObject({ code: "throttled" });
    clock += ctx.limits.loginWindowSeconds * 1000;
    await expect(attempt(PASSWORD)).resolves.toBeUndefined();
  });

  describe("sessions", () => {
    it("lists each session with its browser, device, address and times, this one first and marked", async () => {
      const mac = await signIn(CHROME_MAC, PASSWORD, "203.0.113.5");
      clock += 5000;
      const phone = await signIn(SAFARI_IPHONE, PASSWORD, "2001:db8::7");
      const sessions = await listSessions(ctx, user.id, mac.token);
      expect(sessions).toEqual([
        {
          id: hashSessionToken(mac.token),
          browser: "Chrome 131",
          device: "Apple Macintosh, Mac OS 10.15.7",
          ip: "203.0.113.5",
          signedInAt: clock - 5000,
          lastActiveAt: clock - 5000,
          current: true,
        },
        {
          id: hashSessionToken(phone.token),
          browser: "Mobile Safari 18",
          device: "Apple iPhone, iOS 18.1",
          ip: "2001:db8::7",
          signedInAt: clock,
          lastActiveAt: clock,
          current: false,
        },
      ]);
    });

    it("records when a session was last used, at most once a minute", async () => {
      const s = await signIn();
      const seen = async () =>
        (await store.db.selectFrom("sessions").select("last_seen_at").where("id", "=", hashSessionToken(s.token)).executeTakeFirstOrThrow())
          .last_seen_at;
      clock += LAST_SEEN_EVERY_MS - 1;
      await userForSession(ctx, s.token);
      expect(await seen()).toBeNull();
      clock += 1;
      await userForSession(ctx, s.token);
      expect(await seen()).toBe(clock);
      const first = clock;
      clock += 30_000;
      await userForSession(ctx, s.token);
      expect(await seen()).toBe(first);
      clock += 30_000;
      await userForSession(ctx, s.token);
      expect(await seen()).toBe(clock);
      expect((await listSessions(ctx, user.id, s.token))[0]?.lastActiveAt).toBe(clock);
    });

    it("revokes one of one's own sessions, and no one else's", async () => {
      const mine = await signIn();
      const other = await signIn(SAFARI_IPHONE);
      const stranger = await createUser({ ctx, input: { email: `stranger${n}@example.com`, password: PASSWORD } });
      await expect(revokeSession(ctx, stranger.id, hashSessionToken(other.token))).rejects.toMatchObject({ code: "not_found" });
      expect(await userForSession(ctx, other.token)).not.toBeNull();
      await revokeSession(ctx, user.id, hashSessionToken(other.token));
      expect(await userForSession(ctx, other.token)).toBeNull();
      expect(await userForSession(ctx, mine.token)).not.toBeNull();
    });

    it("signs out everywhere, this session included, and leaves other users signed in", async () => {
      const a = await signIn();
      const b = await signIn(SAFARI_IPHONE);
      const stranger = await createUser({ ctx, input: { email: `bystander${n}@example.com`, password: PASSWORD } });
      const theirs = await login({ ctx, input: { email: stranger.email, password: PASSWORD, ip: "10.31.0.1", userAgent: "x" } });
      await endSessions(ctx, user.id);
      expect(await userForSession(ctx, a.token)).toBeNull();
      expect(await userForSession(ctx, b.token)).toBeNull();
      expect(await userForSession(ctx, theirs.token)).not.toBeNull();
      expect(await listSessions(ctx, user.id, a.token)).toEqual([]);
    });
  });
});

describe("describeUserAgent", () => {
  it("names what it does not recognise plainly", () => {
    expect(describeUserAgent("")).toEqual({ browser: "Unknown browser", device: "Unknown device" });
    expect(describeUserAgent("curl/8.5.0")).toEqual({ browser: "Unknown browser", device: "Unknown device" });
  });
});
