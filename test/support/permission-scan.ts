import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { PERMISSIONS, type Audience } from "../../src/core/permissions/table";

/**
 * Reads the source for what registers with the permission table: server actions (exports of
 * "use server" files), pages (their guard call) and API routes. Anything that escapes the
 * table is a violation. The registrations it returns are what the authorization matrix of
 * the access issue (#12) iterates over.
 */
export interface Registration {
  kind: "action" | "page" | "route" | "route-handler";
  file: string;
  name: string;
  permission: string;
}
export interface Violation {
  file: string;
  name: string;
  problem: string;
}
export interface ScanResult {
  registrations: Registration[];
  violations: Violation[];
}

const AUDIENCE: ReadonlyMap<string, Audience> = new Map(PERMISSIONS.map((row) => [row.permission, row.audience]));
/** Each wrapper and page guard, with the audience its permission must have. */
const ACTION_WRAPPERS: Record<string, Audience> = {
  action: "organization",
  publicAction: "public",
  userAction: "signed-in",
  superuserAction: "superuser",
};
const PAGE_GUARDS: Record<string, Audience> = {
  loadOrg: "organization",
  loadProject: "organization",
  loadUser: "signed-in",
  loadSuperuser: "superuser",
};

function permissionProblem(permission: string | null, wanted: Audience): string | null {
  if (permission === null) return "the permission is not a string literal";
  const audience = AUDIENCE.get(permission);
  if (!audience) return `'${permission}' is not in the permission table`;
  return audience === wanted ? null : `'${permission}' belongs to the ${audience} audience, not ${wanted}`;
}

const parse = (file: string, source: string) =>
  ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
const directive = (s: ts.Statement) => (ts.isExpressionStatement(s) && ts.isStringLiteral(s.expression) ? s.expression.text : null);
const literal = (node: ts.Node | undefined) => (node && ts.isStringLiteralLike(node) ? node.text : null);
const hasExport = (s: ts.Statement) =>
  ts.canHaveModifiers(s) && (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

function isFileLevelUseServer(sf: ts.SourceFile): boolean {
  for (const s of sf.statements) {
    const text = directive(s);
    if (text === null) return false;
    if (text === "use server") return true;
  }
  return false;
}

/** `"use server"` inside a function makes an inline action that no wrapper sees. */
function inlineUseServer(sf: ts.SourceFile): number[] {
  const lines: number[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isBlock(node)) {
      const first = node.statements[0];
      if (first && directive(first) === "use server") lines.push(sf.getLineAndCharacterOfPosition(first.getStart()).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return lines;
}

/** Every export of a "use server" file must be `export const x = action("perm", …)` (or publicAction, userAction, superuserAction). */
export function scanServerActions(file: string, source: string): ScanResult {
  const sf = parse(file, source);
  const result: ScanResult = { registrations: [], violations: [] };
  for (const line of inlineUseServer(sf)) {
    result.violations.push({ file, name: `line ${line}`, problem: 'an inline "use server" action escapes the permission table' });
  }
  if (!isFileLevelUseServer(sf)) return result;
  for (const s of sf.statements) {
    if (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) continue; // types are erased
    if (ts.isExportAssignment(s) || ts.isExportDeclaration(s)) {
      if (ts.isExportDeclaration(s) && s.isTypeOnly) continue;
      result.violations.push({ file, name: s.getText(sf).slice(0, 60), problem: "re-exports and default exports escape the wrapper" });
      continue;
    }
    if (!hasExport(s)) continue;
    if (!ts.isVariableStatement(s) || !(s.declarationList.flags & ts.NodeFlags.Const)) {
      const name = (ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && s.name ? s.name.text : s.getText(sf).slice(0, 60);
      result.violations.push({ file, name, problem: "exported without the action wrapper" });
      continue;
    }
    for (const d of s.declarationList.declarations) {
      const name = d.name.getText(sf);
      const call = d.initializer && ts.isCallExpression(d.initializer) ? d.initializer : null;
      const wrapper = call && ts.isIdentifier(call.expression) ? call.expression.text : null;
      const wanted = wrapper ? ACTION_WRAPPERS[wrapper] : undefined;
      if (!call || !wanted) {
        result.violations.push({ file, name, problem: "exported without the action wrapper" });
        continue;
      }
      const permission = literal(call.arguments[0]);
      const problem = permissionProblem(permission, wanted);
      if (problem) result.violations.push({ file, name, problem });
      else result.registrations.push({ kind: "action", file, name, permission: permission! });
    }
  }
  return result;
}

/** A page must call a guard with a permission of the table; public pages are listed by the caller. */
export function scanPage(file: string, source: string): ScanResult {
  const sf = parse(file, source);
  const result: ScanResult = { registrations: [], violations: [] };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text in PAGE_GUARDS) {
      const permission = literal(node.arguments[0]);
      const problem = permissionProblem(permission, PAGE_GUARDS[node.expression.text]!);
      if (problem) result.violations.push({ file, name: node.expression.text, problem });
      else result.registrations.push({ kind: "page", file, name: node.expression.text, permission: permission! });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (result.registrations.length === 0 && result.violations.length === 0) {
    result.violations.push({ file, name: "page", problem: "calls no page guard (loadOrg, loadProject, loadUser, loadSuperuser)" });
  }
  return result;
}

/** Routes carry their permission as data: it must be an organization row of the table. */
export function scanRoutes(
  routes: readonly { method: string; path: string; permission: string }[],
  audience: Audience = "organization",
): ScanResult {
  const result: ScanResult = { registrations: [], violations: [] };
  for (const r of routes) {
    const name = `${r.method} ${r.path}`;
    const problem = permissionProblem(r.permission, audience);
    if (problem) result.violations.push({ file: "src/server/api/router.ts", name, problem });
    else result.registrations.push({ kind: "route", file: "src/server/api/router.ts", name, permission: r.permission });
  }
  return result;
}

/** Source files under `dir` (relative to `root`), skipping build output and dependencies. */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(root, dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !entry.name.startsWith(".")) out.push(...sourceFiles(root, relative(root, path)));
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts")) out.push(relative(root, path));
  }
  return out.sort();
}

export const readSource = (root: string, file: string) => readFileSync(join(root, file), "utf8");

/**
 * A Next.js route handler (a `route.ts` under app/) answers without a page guard: each of its
 * exports must be `export const GET = publicRoute("perm", …)` with a public row of the table.
 */
export function scanRouteHandler(file: string, source: string): ScanResult {
  const sf = parse(file, source);
  const result: ScanResult = { registrations: [], violations: [] };
  for (const s of sf.statements) {
    if (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) continue;
    if (ts.isExportAssignment(s) || ts.isExportDeclaration(s)) {
      result.violations.push({ file, name: s.getText(sf).slice(0, 60), problem: "re-exports and default exports escape the wrapper" });
      continue;
    }
    if (!hasExport(s)) continue;
    if (!ts.isVariableStatement(s)) {
      const name = (ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && s.name ? s.name.text : s.getText(sf).slice(0, 60);
      result.violations.push({ file, name, problem: "exported without publicRoute" });
      continue;
    }
    for (const d of s.declarationList.declarations) {
      const name = d.name.getText(sf);
      // Route segment options (`dynamic`, `runtime`, …) are plain values, not handlers.
      if (!/^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$/.test(name)) continue;
      const call = d.initializer && ts.isCallExpression(d.initializer) ? d.initializer : null;
      if (!call || !ts.isIdentifier(call.expression) || call.expression.text !== "publicRoute") {
        result.violations.push({ file, name, problem: "exported without publicRoute" });
        continue;
      }
      const permission = literal(call.arguments[0]);
      const problem = permissionProblem(permission, "public");
      if (problem) result.violations.push({ file, name, problem });
      else result.registrations.push({ kind: "route-handler", file, name, permission: permission! });
    }
  }
  return result;
}
