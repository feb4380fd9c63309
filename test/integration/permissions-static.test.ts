import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PERMISSIONS } from "../../src/core/permissions/table";
import { ACCOUNT_ROUTES, ROUTES } from "../../src/server/api/router";
import { readSource, scanPage, scanRouteHandler, scanRoutes, scanServerActions, sourceFiles } from "../support/permission-scan";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Pages that need no organization permission, each with the reason. Everything else under
 * app/ that is a page must call a guard (app/lib/loaders.ts).
 */
const PUBLIC_PAGES: Record<string, string> = {
  "app/page.tsx": "redirects to setup, login or the user's first organization; shows nothing",
  "app/login/page.tsx": "the sign-in form",
  "app/setup/page.tsx": "first-run setup; redirects away once a user exists",
  "app/invite/[token]/page.tsx": "an invitation's link: the unguessable token is the permission (invite:accept)",
  "app/forgot-password/page.tsx": "asks for a password-reset link: whoever forgot their password has no session",
  "app/reset-password/[token]/page.tsx": "the reset link's form: the token in the link is the credential",
  "app/login/two-factor/page.tsx": "sign-in's second step: the pending sign-in's cookie is the credential (session:second-factor)",
};

const appFiles = sourceFiles(ROOT, "app");
// Next bundles a "use server" file wherever it lives, so src/ is read for them too.
const actionFiles = [...appFiles, ...sourceFiles(ROOT, "src")];

describe("the permission table covers every entry point", () => {
  it('registers every export of every "use server" file through the action wrapper', () => {
    const results = actionFiles.map((file) => scanServerActions(file, readSource(ROOT, file)));
    expect(results.flatMap((r) => r.violations)).toEqual([]);
    const actions = results.flatMap((r) => r.registrations);
    // The scan found the actions it should: a scan that sees nothing would pass vacuously.
    expect(actions.map((a) => a.name)).toEqual(
      expect.arrayContaining(["rotateKeyAction", "removeQuotaAction", "setKeyActiveAction", "triageAction", "loginAction"]),
    );
  });

  it("guards every page, or lists it as public with a reason", () => {
    const pages = appFiles.filter((f) => f.endsWith("page.tsx"));
    expect(pages.length).toBeGreaterThan(10);
    const violations = pages.filter((f) => !(f in PUBLIC_PAGES)).flatMap((file) => scanPage(file, readSource(ROOT, file)).violations);
    expect(violations).toEqual([]);
    // A public page that was removed or moved must leave the list too.
    expect(Object.keys(PUBLIC_PAGES).filter((f) => !pages.includes(f))).toEqual([]);
  });

  it("gives every web API route a permission of the table", () => {
    expect(ROUTES.length).toBeGreaterThan(5);
    expect(scanRoutes(ROUTES).violations).toEqual([]);
    expect(ACCOUNT_ROUTES.length).toBeGreaterThan(0);
    expect(scanRoutes(ACCOUNT_ROUTES, "signed-in").violations).toEqual([]);
  });

  it("registers every route handler under app/ with publicRoute and a public row", () => {
    const handlers = appFiles.filter((f) => f.endsWith("/route.ts"));
    expect(handlers).toContain("app/sso/[org]/callback/route.ts");
    const results = handlers.map((file) => scanRouteHandler(file, readSource(ROOT, file)));
    expect(results.flatMap((r) => r.violations)).toEqual([]);
    expect(results.flatMap((r) => r.registrations).map((r) => r.name)).toContain("GET");
    expect(
      scanRouteHandler(
        "app/x/route.ts",
        'export const dynamic = "force-dynamic";\nexport async function GET() {}\nexport const POST = publicRoute("org:read", h);',
      ).violations.map((v) => v.problem),
    ).toEqual(["exported without publicRoute", "'org:read' belongs to the organization audience, not public"]);
  });

  it("uses every row of the table somewhere, so a row cannot go stale unnoticed", () => {
    const used = new Set(
      [
        ...appFiles.flatMap((f) => [
          ...scanServerActions(f, readSource(ROOT, f)).registrations,
          ...(f.endsWith("page.tsx") ? scanPage(f, readSource(ROOT, f)).registrations : []),
          ...(f.endsWith("/route.ts") ? scanRouteHandler(f, readSource(ROOT, f)).registrations : []),
        ]),
        ...scanRoutes(ROUTES).registrations,
        ...scanRoutes(ACCOUNT_ROUTES, "signed-in").registrations,
      ].map((r) => r.permission),
    );
    expect(PERMISSIONS.map((p) => p.permission).filter((p) => !used.has(p))).toEqual([]);
  });
});

describe("the README's permission table", () => {
  it("lists every organization permission with its roles and token scope, as the table says", () => {
    const readme = readSource(ROOT, "README.md");
    const rows = [...readme.matchAll(/^\s*\| `([a-z:-]+)` \| ([a-z, ]+) \| `([a-z:]+)` \| [^|]+ \|$/gm)].map((m) => ({
      permission: m[1],
      roles: m[2]!.split(", "),
      scope: m[3],
    }));
    const expected = PERMISSIONS.filter((p) => p.audience === "organization").map((p) => ({
      permission: p.permission,
      roles: [...p.roles],
      scope: (p as { scope?: string }).scope,
    }));
    expect(rows).toEqual(expected);
  });
});

describe("the checker itself", () => {
  const file = "app/actions/synthetic.ts";

  it("fails on an unregistered server action", () => {
    const source = `"use server";\nexport async function wipeAction(form: FormData) { return form; }\n`;
    expect(scanServerActions(file, source).violations).toEqual([
      { file, name: "wipeAction", problem: "exported without the action wrapper" },
    ]);
  });

  it("fails on a wrapped action whose permission is not in the table, or of the wrong audience", () => {
    const source = [
      '"use server";',
      'export const a = action("key:destroy", async () => ({}));',
      'export const b = publicAction("key:rotate", async () => ({}));',
      'const perm = "key:rotate";',
      "export const c = action(perm, async () => ({}));",
      "export const d = async () => ({});",
      "export { d as e };",
      "export default d;",
    ].join("\n");
    expect(scanServerActions(file, source).violations.map((v) => [v.name, v.problem])).toEqual([
      ["a", "'key:destroy' is not in the permission table"],
      ["b", "'key:rotate' belongs to the organization audience, not public"],
      ["c", "the permission is not a string literal"],
      ["d", "exported without the action wrapper"],
      ["export { d as e };", "re-exports and default exports escape the wrapper"],
      ["export default d;", "re-exports and default exports escape the wrapper"],
    ]);
  });

  it('fails on an inline "use server" action in a page', () => {
    const source = `export default function Page() {\n  async function go() {\n    "use server";\n  }\n  return go;\n}\n`;
    expect(scanServerActions("app/x/page.tsx", source).violations).toEqual([
      { file: "app/x/page.tsx", name: "line 3", problem: 'an inline "use server" action escapes the permission table' },
    ]);
  });

  it("accepts a registered action and records its permission", () => {
    const source = `"use server";\nimport { action } from "../lib/action";\nexport type T = number;\nexport const rotate = action("key:rotate", async () => ({}));\n`;
    expect(scanServerActions(file, source)).toEqual({
      violations: [],
      registrations: [{ kind: "action", file, name: "rotate", permission: "key:rotate" }],
    });
  });

  it("fails on a page without a guard and on a guard naming an unknown permission", () => {
    expect(scanPage("app/p/page.tsx", "export default async function P() { return null; }").violations).toHaveLength(1);
    expect(
      scanPage("app/p/page.tsx", 'export default async function P() { await loadOrg("org:admin", "a", "/"); }').violations[0]?.problem,
    ).toBe("'org:admin' is not in the permission table");
  });

  it("fails on a superuser guard or action naming a row of another audience", () => {
    expect(
      scanPage("app/p/page.tsx", 'export default async function P() { await loadSuperuser("account:read", "/"); }').violations[0]?.problem,
    ).toBe("'account:read' belongs to the signed-in audience, not superuser");
    const source = `"use server";\nexport const a = superuserAction("user:admin", async () => ({}));\nexport const b = userAction("user:admin", async () => ({}));\n`;
    expect(scanServerActions(file, source).violations).toEqual([
      { file, name: "b", problem: "'user:admin' belongs to the superuser audience, not signed-in" },
    ]);
  });

  it("fails on a route whose permission is not in the table", () => {
    expect(scanRoutes([{ method: "DELETE", path: "/projects/{}/{}", permission: "project:explode" }]).violations).toHaveLength(1);
  });
});
