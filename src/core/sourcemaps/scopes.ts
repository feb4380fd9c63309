import { parse, type Node } from "acorn";
import { scanScopes, type FunctionScope } from "./scope-scan";

export type { FunctionScope } from "./scope-scan";

/**
 * The functions of a minified file, for naming a frame by the function that encloses it rather
 * than by whatever identifier the source map names at the call's column (Sentry's "scope
 * names"): each function's source range and where its name token is (the function's own id,
 * the variable, property, method or assignment target it is given to). Offsets are UTF-16
 * indices into the file, as acorn counts them.
 */
export interface ScopeIndex {
  scopes: FunctionScope[];
  lineStarts: number[];
}

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

type AnyNode = Node & Record<string, unknown>;

const isNode = (value: unknown): value is AnyNode =>
  typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";

/** Where the name a function is known by is written: its id, or what it is assigned or attached to. */
function nameTokenOf(fn: AnyNode, parent: AnyNode | null): number | null {
  const id = fn.id;
  if (isNode(id) && id.type === "Identifier") return id.start;
  if (!parent) return null;
  const key = (node: unknown): number | null => {
    if (!isNode(node)) return null;
    if (node.type === "Identifier" || node.type === "PrivateIdentifier") return node.start;
    if (node.type === "MemberExpression") return key(node.property);
    return null;
  };
  switch (parent.type) {
    case "VariableDeclarator":
      return parent.init === fn ? key(parent.id) : null;
    case "AssignmentExpression":
      return parent.right === fn ? key(parent.left) : null;
    case "Property":
    case "PropertyDefinition":
      return parent.value === fn && parent.computed !== true ? key(parent.key) : null;
    case "MethodDefinition":
      return parent.computed !== true ? key(parent.key) : null;
    default:
      return null;
  }
}

/**
 * Sources longer than this (UTF-16 units) are indexed from their tokens (scope-scan.ts) rather
 * than from a syntax tree: the tree of a 12 MB bundle takes ~700 MB, the token scan ~90 MB.
 */
export const SYNTAX_TREE_LIMIT = 2 * 1024 * 1024;

/**
 * The file's function scopes and line starts; null when it does not parse as JavaScript (then
 * the mapping's names are used).
 */
export function indexScopes(source: string): ScopeIndex | null {
  if (source.length <= SYNTAX_TREE_LIMIT) return astScopes(source);
  const scopes = scanScopes(source);
  return scopes ? { scopes, lineStarts: lineStartsOf(source) } : null;
}

/** The function scopes of a syntax tree: exact, and the heavier way (see SYNTAX_TREE_LIMIT). */
export function astScopes(source: string): ScopeIndex | null {
  let ast: Node;
  try {
    ast = parse(source, { ecmaVersion: "latest", sourceType: "module", allowHashBang: true, allowReturnOutsideFunction: true });
  } catch {
    try {
      ast = parse(source, { ecmaVersion: "latest", sourceType: "script", allowHashBang: true, allowReturnOutsideFunction: true });
    } catch {
      return null;
    }
  }
  const scopes: FunctionScope[] = [];
  // An explicit stack rather than recursion: a minified file nests deeper than the call stack allows.
  const stack: [AnyNode, AnyNode | null][] = [[ast as AnyNode, null]];
  while (stack.length > 0) {
    const [node, parent] = stack.pop()!;
    // A method's or property's function is named by the definition above it.
    if (FUNCTIONS.has(node.type)) scopes.push({ start: node.start, end: node.end, nameAt: nameTokenOf(node, parent) });
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) {
        for (const child of value) if (isNode(child)) stack.push([child, node]);
      } else if (isNode(value)) stack.push([value, node]);
    }
  }
  scopes.sort((a, b) => a.start - b.start);
  return { scopes, lineStarts: lineStartsOf(source) };
}

function lineStartsOf(source: string): number[] {
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 10) lineStarts.push(i + 1);
    else if (c === 13 && source.charCodeAt(i + 1) !== 10) lineStarts.push(i + 1);
  }
  return lineStarts;
}

/** 1-based line, 0-based column → offset; null outside the file. */
export function offsetOf(index: ScopeIndex, line: number, column: number): number | null {
  const start = index.lineStarts[line - 1];
  return start === undefined ? null : start + column;
}

/** 1-based line and 0-based column of an offset. */
export function positionOf(index: ScopeIndex, offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = index.lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (index.lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - index.lineStarts[lo]! };
}

/** The innermost function around an offset, if any. */
export function enclosingScope(index: ScopeIndex, offset: number): FunctionScope | null {
  let best: FunctionScope | null = null;
  for (const scope of index.scopes) {
    if (scope.start > offset) break;
    if (scope.end > offset && (!best || scope.start >= best.start)) best = scope;
  }
  return best;
}
