import { describe, expect, it } from "vitest";
import { isOrgPermission, isPermission, PERMISSIONS, roleAllows } from "./table";

describe("the permission table", () => {
  it("names each permission once", () => {
    const names = PERMISSIONS.map((p) => p.permission);
    expect(new Set(names).size).toBe(names.length);
  });

  it("lets owners and admins change projects and keys, and members only read and triage", () => {
    for (const permission of ["project:write", "project:settings:write", "key:write", "key:rotate"] as const) {
      expect([roleAllows("owner", permission), roleAllows("admin", permission), roleAllows("member", permission)]).toEqual([
        true,
        true,
        false,
      ]);
    }
    for (const permission of ["org:read", "project:read", "issue:read", "issue:triage"] as const) {
      expect(roleAllows("member", permission)).toBe(true);
    }
  });

  it("keeps sign-in (password, second factor, single sign-on), setup, sign-out and the password reset public, with no roles", () => {
    const publicRows = PERMISSIONS.filter((p) => p.audience === "public");
    expect(publicRows.map((p) => p.permission)).toEqual([
      "session:login",
      "session:setup",
      "session:logout",
      "invite:accept",
      "password:reset",
      "session:second-factor",
      "sso:login",
    ]);
    expect(publicRows.every((p) => p.roles.length === 0)).toBe(true);
  });

  it("keeps user management for superusers alone, with no organization role granting it", () => {
    const rows = PERMISSIONS.filter((p) => p.audience === "superuser");
    expect(rows.map((p) => [p.permission, p.roles.length])).toEqual([["user:admin", 0]]);
  });

  it("tells organization permissions from others and unknown names", () => {
    expect(isOrgPermission("key:rotate")).toBe(true);
    expect(isOrgPermission("session:login")).toBe(false);
    expect(isPermission("session:login")).toBe(true);
    expect(isPermission("key:destroy")).toBe(false);
  });
});
