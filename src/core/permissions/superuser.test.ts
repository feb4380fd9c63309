import { describe, expect, it } from "vitest";
import type { Account } from "../ports/accounts";
import { requireSuperuser } from "./superuser";

const user = (is_superuser: number): Account => ({
  id: 1,
  email: "a@example.com",
  name: "",
  password_hash: "x",
  is_superuser,
  created_at: 0,
});

describe("requireSuperuser", () => {
  it("lets a user with the superuser flag through", () => {
    expect(requireSuperuser(user(1), "user:admin").id).toBe(1);
  });

  it.each([
    ["a user without the flag", user(0)],
    ["nobody signed in", null],
  ])("answers not found for %s", (_what, who) => {
    expect(() => requireSuperuser(who, "user:admin")).toThrow(expect.objectContaining({ code: "not_found" }));
  });
});
