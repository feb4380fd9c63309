import { describe, expect, it } from "vitest";
import { changeLines } from "./summary";

describe("changeLines", () => {
  it("shows a changed field as before → after, a new one as its value, a removed one as what it was", () => {
    expect(changeLines({ before: { role: "member", team: "web" }, after: { role: "admin", active: false, limit: null } })).toEqual([
      "role: member → admin",
      "team was web",
      "active: no",
      "limit: none",
    ]);
  });

  it("leaves out a field the change kept as it was", () => {
    expect(changeLines({ before: { name: "Acme", slug: "acme" }, after: { name: "Acme Inc", slug: "acme" } })).toEqual([
      "name: Acme → Acme Inc",
    ]);
  });

  it("shows nothing for an entry without a summary", () => {
    expect(changeLines({})).toEqual([]);
  });
});
