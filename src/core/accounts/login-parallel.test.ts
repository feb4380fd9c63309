import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import { connect, type Store } from "../../db/connect";
import type { Ctx } from "../context";
import { createUser } from "./create-user";
import { login, type LoginInput } from "./login";
import type * as password from "./password";

// Counts password checks (scrypt runs) while keeping the real check.
const verifications = vi.hoisted(() => ({ count: 0 }));
vi.mock("./password", async (importOriginal) => {
  const real = await importOriginal<typeof password>();
  return {
    ...real,
    verifyPassword: async (plain: string, hash: string) => {
      verifications.count++;
      return real.verifyPassword(plain, hash);
    },
  };
});

const MAX = 10;
const ACCOUNT_MAX = 20;
const GUESSES = 100;
const RIGHT = "the right password";

type Outcome = "signed in" | "unauthenticated" | "throttled";

async function outcome(ctx: Ctx, input: LoginInput): Promise<Outcome> {
  try {
    await login({ ctx, input });
    return "signed in";
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "unauthenticated" || code === "throttled") return code;
    throw error;
  }
}

describe.each(DIALECTS)("100 parallel login guesses on %s", (dialect) => {
  let store: TestStore;
  // A second connection to the same database stands in for a second Telltale process.
  let other: Store;
  let ctxs: Ctx[];
  let n = 0;
  let email: string;
  const limits = { sessionDays: 14, loginMaxFailures: MAX, loginAccountMaxFailures: ACCOUNT_MAX, loginWindowSeconds: 900 };

  beforeAll(async () => {
    store = await openTestStore(dialect);
    other = connect(
      dialect === "sqlite"
        ? { kind: "sqlite", file: `${store.env.TELLTALE_DATA_DIR ?? ""}/telltale.sqlite` }
        : { kind: "postgres", url: store.env.DATABASE_URL ?? "", poolMax: 4 },
    );
    ctxs = [testCtx(store, { limits }), testCtx(other, { limits })];
  });
  afterAll(async () => {
    await other.close();
    await store.cleanup();
  });
  beforeEach(async () => {
    n++;
    email = `victim${n}@example.com`;
    await createUser({ ctx: ctxs[0] as Ctx, input: { email, password: RIGHT } });
    verifications.count = 0;
  });

  const guesses = (ip: string, rightAt: number) =>
    Array.from({ length: GUESSES }, (_, i) => {
      const input = { email, password: i === rightAt ? RIGHT : `guess ${i}`, ip, userAgent: "vitest" };
      return outcome(ctxs[i % 2] as Ctx, input);
    });

  it(`checks no more than ${MAX} wrong passwords from one address, whatever arrives together`, async () => {
    const outcomes = await Promise.all(guesses(`203.0.113.${n}`, 50));
    const count = (o: Outcome) => outcomes.filter((x) => x === o).length;
    expect(count("unauthenticated")).toBeLessThanOrEqual(MAX);
    // A right guess gives its attempt back (decision 0007), which can let one more be checked.
    expect(verifications.count).toBeLessThanOrEqual(MAX + 1);
    expect(verifications.count).toBe(count("unauthenticated") + count("signed in"));
    expect(count("throttled")).toBe(GUESSES - verifications.count);
    // The right guess signs in only if it was among the checked ones.
    expect(outcomes[50] === "signed in" || outcomes[50] === "throttled").toBe(true);
  });

  it("throttles the right guess among 100 parallel ones once the address is past the limit", async () => {
    const ip = `198.51.100.${n}`;
    for (let i = 0; i < MAX; i++)
      expect(await outcome(ctxs[0] as Ctx, { email, password: "wrong", ip, userAgent: "vitest" })).toBe("unauthenticated");
    verifications.count = 0;
    const outcomes = await Promise.all(guesses(ip, 50));
    expect(outcomes.every((o) => o === "throttled")).toBe(true);
    expect(verifications.count).toBe(0);
  });

  it("checks no more than the account limit when the guesses come from 100 addresses", async () => {
    const right = 99;
    const outcomes = await Promise.all(
      Array.from({ length: GUESSES }, (_, i) =>
        outcome(ctxs[i % 2] as Ctx, { email, password: i === right ? RIGHT : `guess ${i}`, ip: `10.${n}.0.${i}`, userAgent: "vitest" }),
      ),
    );
    expect(outcomes.filter((o) => o === "unauthenticated").length).toBeLessThanOrEqual(ACCOUNT_MAX);
    expect(verifications.count).toBeLessThanOrEqual(ACCOUNT_MAX + 1);
    expect(outcomes.filter((o) => o === "throttled").length).toBe(GUESSES - verifications.count);
  });
});
