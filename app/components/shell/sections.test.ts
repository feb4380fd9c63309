import { describe, expect, it } from "vitest";
import { accountSections, personAllows, projectInUrl, shownSections, switchProjectHref } from "./sections";

describe("sidebar sections", () => {
  it("shows the project sections only once a project is chosen", () => {
    expect(shownSections({ org: "o", project: null, role: "member" }, "/orgs/o").map((s) => s.id)).toEqual([
      "projects",
      "issues",
      "metric-alerts",
      "members",
      "teams",
      "tokens",
    ]);
    expect(shownSections({ org: "o", project: "api", role: "member" }, "/orgs/o").map((s) => s.href)).toEqual([
      "/orgs/o",
      "/orgs/o/issues?project=api",
      "/orgs/o/projects/api/releases",
      "/orgs/o/projects/api/alerts",
      "/orgs/o/metric-alerts",
      "/orgs/o/projects/api/stats",
      "/orgs/o/projects/api/settings",
      "/orgs/o/members",
      "/orgs/o/teams",
      "/orgs/o/tokens",
    ]);
  });

  it("shows dead letters to owners and admins, whom the permission table lets read them", () => {
    for (const role of ["owner", "admin"] as const)
      expect(shownSections({ org: "o", project: null, role }, "/orgs/o").map((s) => s.id)).toContain("dead-letters");
  });

  it("shows the audit log to owners and managers, whom the permission table lets read it", () => {
    const ids = (role: "owner" | "manager" | "admin" | "member") =>
      shownSections({ org: "o", project: null, role }, "/orgs/o").map((s) => s.id);
    expect(ids("owner")).toContain("audit-log");
    expect(ids("manager")).toContain("audit-log");
    expect(ids("admin")).not.toContain("audit-log");
    expect(ids("member")).not.toContain("audit-log");
  });

  it("leads Settings to the organization's settings without a project, for those who may change them", () => {
    expect(shownSections({ org: "o", project: null, role: "manager" }, "/orgs/o/settings").find((s) => s.id === "settings")).toMatchObject({
      href: "/orgs/o/settings",
      current: true,
    });
    expect(shownSections({ org: "o", project: null, role: "admin" }, "/orgs/o").map((s) => s.id)).not.toContain("settings");
  });

  it("marks the section the page lies under, and the organization's home only on itself", () => {
    const current = (path: string) =>
      shownSections({ org: "o", project: "api", role: "owner" }, path)
        .filter((s) => s.current)
        .map((s) => s.id);
    expect(current("/orgs/o")).toEqual(["projects"]);
    expect(current("/orgs/o/issues/12/events")).toEqual(["issues"]);
    expect(current("/orgs/o/projects/api/settings/keys")).toEqual(["settings"]);
    expect(current("/orgs/o/traces/abc")).toEqual([]);
  });

  it("reads the project from a project path or the stream's query, never from the new-project form", () => {
    expect(projectInUrl("/orgs/o/projects/api/stats", null)).toBe("api");
    expect(projectInUrl("/orgs/o/issues", "web")).toBe("web");
    expect(projectInUrl("/orgs/o/projects/new", null)).toBeNull();
  });

  it("switches project on the same page where the other project has it, else to its issues", () => {
    expect(switchProjectHref("o", "/orgs/o/projects/api/settings/keys", "web")).toBe("/orgs/o/projects/web/settings/keys");
    expect(switchProjectHref("o", "/orgs/o/issues/3", "web")).toBe("/orgs/o/issues?project=web");
    expect(switchProjectHref("o", "/orgs/o/projects/api/stats", null)).toBe("/orgs/o/issues");
  });

  it("shows Account to everyone and Users to superusers only, below the organization's sections", () => {
    expect(accountSections(false, "/orgs/o").map((s) => [s.label, s.href])).toEqual([["Account", "/account"]]);
    expect(accountSections(true, "/orgs/o").map((s) => [s.label, s.href])).toEqual([
      ["Account", "/account"],
      ["Users", "/admin/users"],
    ]);
    expect(
      accountSections(true, "/admin/users")
        .filter((s) => s.current)
        .map((s) => s.id),
    ).toEqual(["users"]);
  });

  it("lists Users under an Admin heading, and lets the permission table's audience decide who sees an entry", () => {
    expect(accountSections(true, "/account").map((s) => [s.id, s.group ?? null, s.current])).toEqual([
      ["account", null, true],
      ["users", "Admin", false],
    ]);
    expect(personAllows(false, "account:write")).toBe(true);
    expect(personAllows(false, "user:admin")).toBe(false);
    expect(personAllows(true, "user:admin")).toBe(true);
    // An organization's row needs a role, which an entry outside the organization does not have.
    expect(personAllows(true, "org:read")).toBe(false);
  });
});
