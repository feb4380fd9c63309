import { tokenizer, type Options, type Token } from "acorn";

/**
 * Function scopes of a large minified file from its tokens alone, without a syntax tree: acorn's
 * tree of a 12 MB bundle takes ~700 MB and seconds, its tokenizer a few MB and a fraction of
 * that (the tokenizer still tells a regular expression from a division, and template literals
 * apart). Finds what `indexScopes` finds for the shapes bundlers emit — `function` with or
 * without a name, arrows with a block or an expression body, methods, getters and setters — and
 * names each by its own id or by what it is assigned or attached to (`a=`, `a.b=`, `{a:`,
 * `#a=`). An arrow's expression body is taken to end at the next `,` `;` or closing bracket of
 * its level: close enough to say which function a position is in. Null when the file does not
 * tokenize or its brackets do not match.
 */

type Kind = "{" | "(" | "[" | "${";

/** A function whose scope is open: where it starts and where its name is written. */
interface Pending {
  start: number;
  nameAt: number | null;
}

interface Open {
  kind: Kind;
  start: number;
  /** Set on a paren that opens a `function`'s parameters. */
  params?: Pending;
  /** Set on the brace that opens a function's body. */
  body?: Pending;
  /** For a plain paren: the function an arrow after it would be (its name looked back at when it opened). */
  arrowName?: number | null;
  /** For a plain paren: where a method named just before it starts (the name token), if one was. */
  methodAt?: number | null;
}

const CLOSER: Record<string, Kind> = { "}": "{", ")": "(", "]": "[" };

/** One function of a minified file: its source range and where its name token is (UTF-16 offsets). */
export interface FunctionScope {
  start: number;
  end: number;
  /** Offset of the name token in the minified file; null for an anonymous function. */
  nameAt: number | null;
}

/** The label acorn gives a token type: `name`, `privateId`, `function`, `=>`, `{`, `${`… */
const label = (t: Token | undefined): string => t?.type.label ?? "";
const isName = (t: Token | undefined) => label(t) === "name" || label(t) === "privateId";

export function scanScopes(source: string): FunctionScope[] | null {
  for (const sourceType of ["module", "script"] as const) {
    try {
      return scan(source, { ecmaVersion: "latest", sourceType, allowHashBang: true, allowReturnOutsideFunction: true });
    } catch {
      // a syntax error for this source type: try the other
    }
  }
  return null;
}

function scan(source: string, options: Options): FunctionScope[] | null {
  const isAsync = (t: Token | undefined) => label(t) === "name" && t!.end - t!.start === 5 && source.startsWith("async", t!.start);
  const scopes: FunctionScope[] = [];
  const stack: Open[] = [];
  /** The last few tokens, newest last: enough to look back at `a.b=`, `{a:` and `a=>`. */
  const recent: Token[] = [];
  /** Arrows with an expression body, innermost last, with the bracket depth they end at. */
  const expressionArrows: (Pending & { depth: number })[] = [];
  let pendingFunction: Pending | null = null;
  /** A function's parameters just closed: its body's brace comes next. */
  let awaitingBody: Pending | null = null;
  /** An arrow's `=>` just passed: a brace next is its body, anything else an expression. */
  let arrow: Pending | null = null;
  /** A plain paren just closed, with what it may turn out to be (arrow parameters, method parameters). */
  let closedParen: Open | null = null;
  let last: Token | undefined;

  /**
   * The name a function starting after `recent` (less its last `skip` tokens, and an `async`) is
   * known by: `a=`, `a.b=`, `#a=`, `{a:` / `,a:`.
   */
  const nameBefore = (skip = 0): number | null => {
    let n = recent.length - skip;
    if (isAsync(recent[n - 1])) n--;
    const [p3, p2, p1] = [recent[n - 3], recent[n - 2], recent[n - 1]];
    if (label(p1) === "=" && isName(p2)) return p2!.start;
    if (label(p1) === ":" && isName(p2) && (label(p3) === "{" || label(p3) === ",")) return p2!.start;
    return null;
  };

  const endExpressionArrows = (depth: number, end: number) => {
    while (expressionArrows.length > 0 && expressionArrows[expressionArrows.length - 1]!.depth >= depth) {
      const a = expressionArrows.pop()!;
      scopes.push({ start: a.start, end, nameAt: a.nameAt });
    }
  };

  for (const token of tokenizer(source, options)) {
    const l = label(token);
    if (arrow) {
      const a = arrow;
      arrow = null;
      if (l !== "{") expressionArrows.push({ ...a, depth: stack.length });
      else {
        stack.push({ kind: "{", start: token.start, body: a });
        closedParen = null;
        awaitingBody = null;
        pushRecent(recent, token);
        last = token;
        continue;
      }
    }
    const fromParen = closedParen;
    closedParen = null;
    const body = awaitingBody;
    awaitingBody = null;

    if (l === "function") {
      pendingFunction = { start: isAsync(last) ? last!.start : token.start, nameAt: nameBefore() };
    } else if (pendingFunction && isName(token) && label(last) !== "(") {
      // `function name(`: the function's own id names it.
      pendingFunction.nameAt = token.start;
    } else if (l === "(") {
      const open: Open = { kind: "(", start: isAsync(last) ? last!.start : token.start };
      if (pendingFunction) open.params = pendingFunction;
      else {
        open.arrowName = nameBefore();
        // `name(…){`: a method (or getter, setter) if a brace follows the parameters.
        open.methodAt = isName(last) && label(recent[recent.length - 2]) !== "." ? last!.start : label(last) === "]" ? token.start : null;
      }
      pendingFunction = null;
      stack.push(open);
    } else if (l === "{" || l === "[" || l === "${") {
      const open: Open = { kind: l as Kind, start: token.start };
      if (l === "{" && body) open.body = body;
      else if (l === "{" && fromParen && fromParen.methodAt !== null && fromParen.methodAt !== undefined) {
        const at = fromParen.methodAt;
        open.body = { start: at, nameAt: at === fromParen.start ? null : at };
      }
      stack.push(open);
    } else if (l === "}" || l === ")" || l === "]") {
      const want = l === "}" ? ["{", "${"] : [CLOSER[l]!];
      endExpressionArrows(stack.length, last?.end ?? token.start);
      const open = stack.pop();
      if (!open || !want.includes(open.kind)) return null;
      if (open.body) scopes.push({ start: open.body.start, end: token.end, nameAt: open.body.nameAt });
      if (open.params) awaitingBody = open.params;
      else if (open.kind === "(") closedParen = open;
    } else if (l === "=>") {
      // `(a,b)=>` starts at its paren, `a=>` at its parameter.
      if (fromParen) arrow = { start: fromParen.start, nameAt: fromParen.arrowName ?? null };
      else if (isName(last)) arrow = { start: last!.start, nameAt: nameBefore(1) };
    } else if (l === "," || l === ";") {
      endExpressionArrows(stack.length, last?.end ?? token.start);
    }
    pushRecent(recent, token);
    last = token;
  }
  if (stack.length > 0) return null;
  endExpressionArrows(0, source.length);
  scopes.sort((a, b) => a.start - b.start);
  return scopes;
}

function pushRecent(recent: Token[], token: Token): void {
  recent.push(token);
  if (recent.length > 6) recent.shift();
}
