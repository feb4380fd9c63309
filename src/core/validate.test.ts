import { describe, expect, it } from "vitest";
import { FirstAdmin } from "./accounts/setup-first-admin";
import { isTelltaleError, type TelltaleError } from "./errors";
import { validate } from "./validate";

function refusal(input: unknown): TelltaleError {
  try {
    validate(FirstAdmin, input);
  } catch (error) {
    if (isTelltaleError(error)) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("validate", () => {
  it("names every invalid field with its first problem, and the first problem in the message", () => {
    const error = refusal({ email: "not-an-email", password: "short", orgSlug: "Bad Slug!" });
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe("email: enter a valid email address");
    expect(error.details.fields).toEqual({
      email: "enter a valid email address",
      password: "use at least 8 characters for the password",
      orgSlug: "use lowercase letters, digits, '-' and '_' for the slug, starting with a letter or digit",
    });
  });

  it("returns the parsed value when the input is valid", () => {
    expect(validate(FirstAdmin, { email: " Ada@Example.com ", password: "long-enough", orgSlug: "acme" })).toMatchObject({
      email: "ada@example.com",
      orgSlug: "acme",
      name: "",
    });
  });
});
