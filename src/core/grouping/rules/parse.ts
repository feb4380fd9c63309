/**
 * The parser for a project's fingerprint rules, in Sentry's syntax (docs.sentry.io "Fingerprint
 * Rules"; docs/protocol.md#grouping):
 *
 *   # a comment
 *   error.type:DatabaseUnavailable -> system-down
 *   stack.function:"my_function" !error.type:TimeoutError -> timeout-{{ function }}
 *   message:"*connection refused*" -> conn-refused, {{ transaction }} title="Connection refused"
 *
 * A rule is matchers (`[!]name:value`, the value bare or double-quoted, a glob), `->`, values
 * separated by commas (literal text with `{{ variable }}`s), then optional `title="…"`. Every
 * line is parsed even after an error, so the settings page can show all of them, each with its
 * line, column and what was expected there.
 */
import { isKnownVariable, variableRefs } from "../fingerprint";
import { RULE_LIMITS } from "../limits";
import { compileGlob } from "./glob";
import { matcherSpec, MATCHER_NAMES, type FingerprintRule, type RuleError, type RuleMatcher } from "./types";

export type ParseRulesResult = { ok: true; rules: FingerprintRule[] } | { ok: false; errors: RuleError[] };

class SyntaxProblem extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}

const isSpace = (ch: string | undefined) => ch === " " || ch === "\t";
const isNameChar = (ch: string | undefined) => ch !== undefined && /^[A-Za-z0-9_.\-@/]$/.test(ch);

/** A cursor over one line; `fail` reports the 0-based index, shown 1-based. */
class Line {
  at = 0;
  constructor(readonly text: string) {}
  /** The character under the cursor (a method, so narrowing does not outlive a move). */
  ch(): string | undefined {
    return this.text[this.at];
  }
  skipSpaces(): void {
    while (isSpace(this.ch())) this.at++;
  }
  /** End of line, or a comment after whitespace. */
  atEnd(): boolean {
    return this.at >= this.text.length || (this.ch() === "#" && (this.at === 0 || isSpace(this.text[this.at - 1])));
  }
  fail(message: string, at: number = this.at): never {
    throw new SyntaxProblem(at, message);
  }
  /** A double-quoted string: the raw text between the quotes (escapes kept) and where it starts. */
  quoted(): { raw: string; start: number } {
    const open = this.at++;
    while (this.at < this.text.length && this.ch() !== '"') this.at += this.ch() === "\\" ? 2 : 1;
    if (this.at >= this.text.length) this.fail("unclosed '\"'; expected a closing quote", open);
    const raw = this.text.slice(open + 1, this.at);
    this.at++;
    return { raw, start: open + 1 };
  }
}

/** `\x` → `x`, for values and titles (globs keep their escapes). */
function unescape(raw: string): string {
  let out = "";
  for (let i = 0; i < raw.length; i++) out += raw[i] === "\\" && i + 1 < raw.length ? raw[++i] : raw[i];
  return out;
}

function parseMatcher(line: Line): RuleMatcher {
  const start = line.at;
  const negated = line.ch() === "!";
  if (negated) line.at++;
  const nameStart = line.at;
  while (isNameChar(line.ch())) line.at++;
  const name = line.text.slice(nameStart, line.at);
  if (name === "") line.fail("expected a matcher such as error.type:Value, or '->'");
  if (line.ch() !== ":") line.fail(`expected ':' after "${name}" (or '->' after the last matcher)`);
  const spec = matcherSpec(name);
  if (!spec) line.fail(`unknown matcher "${name}"; expected one of ${MATCHER_NAMES.join(", ")}`, nameStart);
  if (spec.key === "tags" && name.length <= 5) line.fail("expected a tag name after 'tags.'", nameStart);
  line.at++;

  let raw: string;
  let rawStart = line.at;
  if (line.ch() === '"') ({ raw, start: rawStart } = line.quoted());
  else {
    while (line.at < line.text.length && !isSpace(line.ch())) line.at++;
    raw = line.text.slice(rawStart, line.at);
  }
  if (raw === "") line.fail(`expected a value after "${name}:"`, rawStart);

  const matcher: RuleMatcher = {
    key: spec.key,
    scope: spec.scope,
    negated,
    pattern: raw,
    source: line.text.slice(start, line.at),
    test: () => false,
  };
  if (spec.key === "tags") matcher.tag = name.slice(5);
  if (spec.key === "app") {
    const value = unescape(raw).toLowerCase();
    if (!["yes", "no", "true", "false", "1", "0"].includes(value)) line.fail('expected "yes" or "no" after "app:"', rawStart);
    const wanted = value === "yes" || value === "true" || value === "1" ? "yes" : "no";
    matcher.test = (v) => v === wanted;
  } else if (spec.key === "family") {
    const families = unescape(raw)
      .toLowerCase()
      .split(",")
      .map((f) => f.trim());
    const unknown = families.find((f) => !["javascript", "native", "other", "all"].includes(f));
    if (unknown !== undefined) line.fail(`unknown family "${unknown}"; expected javascript, native or other`, rawStart);
    matcher.test = (v) => families.includes("all") || families.includes(v);
  } else {
    const glob = compileGlob(raw, spec.glob);
    if (!glob.ok) line.fail(glob.message, rawStart + glob.offset);
    matcher.test = glob.match;
  }
  return matcher;
}

function checkVariables(value: string, start: number, line: Line): void {
  for (const ref of variableRefs(value)) {
    if (!isKnownVariable(ref.name)) {
      line.fail(
        `unknown variable "{{ ${ref.name} }}"; expected default, transaction, error.type, error.value, stack.function, stack.module, stack.abs_path, stack.filename, stack.package, logger, level, message or tags.<name>`,
        start + ref.start,
      );
    }
    if (ref.name === "default" && (ref.start !== 0 || ref.end !== value.length))
      line.fail("{{ default }} must be a value of its own", start + ref.start);
  }
}

/** One fingerprint value: quoted, or bare up to a space or comma (`{{ … }}` may hold spaces). */
function parseValue(line: Line): string {
  const start = line.at;
  if (line.ch() === '"') {
    const { raw, start: rawStart } = line.quoted();
    const value = unescape(raw);
    checkVariables(value, rawStart, line);
    return value;
  }
  while (line.at < line.text.length && !isSpace(line.ch()) && line.ch() !== ",") {
    if (line.text.startsWith("{{", line.at)) {
      const close = line.text.indexOf("}}", line.at + 2);
      if (close === -1) line.fail("unclosed '{{'; expected '}}'");
      line.at = close + 2;
    } else line.at++;
  }
  const value = line.text.slice(start, line.at);
  if (value === "") line.fail("expected a fingerprint value");
  checkVariables(value, start, line);
  return value;
}

function parseRule(text: string, lineNumber: number): FingerprintRule | null {
  const line = new Line(text);
  line.skipSpaces();
  if (line.atEnd()) return null;
  if (text.length > RULE_LIMITS.lineChars) line.fail(`line is longer than ${RULE_LIMITS.lineChars} characters`, 0);

  const matchers: RuleMatcher[] = [];
  while (!line.text.startsWith("->", line.at)) {
    if (line.atEnd())
      line.fail(
        matchers.length === 0 ? "expected a matcher such as error.type:Value" : "expected '->' and a fingerprint after the matchers",
      );
    if (matchers.length === RULE_LIMITS.matchersPerRule) line.fail(`more than ${RULE_LIMITS.matchersPerRule} matchers in one rule`);
    matchers.push(parseMatcher(line));
    if (!isSpace(line.ch()) && !line.atEnd() && !line.text.startsWith("->", line.at)) line.fail("expected a space after the matcher");
    line.skipSpaces();
  }
  if (matchers.length === 0) line.fail("expected a matcher such as error.type:Value before '->'");
  line.at += 2;

  const fingerprint: string[] = [];
  for (;;) {
    line.skipSpaces();
    if (line.atEnd())
      line.fail(fingerprint.length === 0 ? "expected a fingerprint value after '->'" : "expected a fingerprint value after ','");
    if (fingerprint.length === RULE_LIMITS.valuesPerRule)
      line.fail(`more than ${RULE_LIMITS.valuesPerRule} fingerprint values in one rule`);
    fingerprint.push(parseValue(line));
    line.skipSpaces();
    if (line.ch() !== ",") break;
    line.at++;
  }

  let title: string | undefined;
  while (!line.atEnd()) {
    const nameStart = line.at;
    while (isNameChar(line.ch())) line.at++;
    const name = line.text.slice(nameStart, line.at);
    if (name === "" || line.ch() !== "=") line.fail("expected ',' and another value, or an attribute such as title=\"…\"", nameStart);
    if (name !== "title") line.fail(`unknown attribute "${name}"; expected title`, nameStart);
    line.at++;
    title = parseValue(line);
    line.skipSpaces();
  }
  return { line: lineNumber, text: text.trim(), matchers, fingerprint, ...(title !== undefined ? { title } : {}) };
}

/** Parses a project's rules text; all errors or all rules. */
export function parseFingerprintRules(text: string): ParseRulesResult {
  if (text.length > RULE_LIMITS.textChars) {
    return { ok: false, errors: [{ line: 1, column: 1, message: `rules are longer than ${RULE_LIMITS.textChars} characters` }] };
  }
  const rules: FingerprintRule[] = [];
  const errors: RuleError[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length && errors.length < RULE_LIMITS.errors; i++) {
    const source = lines[i]!.endsWith("\r") ? lines[i]!.slice(0, -1) : lines[i]!;
    try {
      const rule = parseRule(source, i + 1);
      if (rule && rules.length === RULE_LIMITS.rules) throw new SyntaxProblem(0, `more than ${RULE_LIMITS.rules} rules`);
      if (rule) rules.push(rule);
    } catch (error) {
      if (!(error instanceof SyntaxProblem)) throw error;
      errors.push({ line: i + 1, column: error.index + 1, message: error.message });
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, rules };
}

/** `line 3, column 18: expected '->' …`, as the settings page shows it. */
export function formatRuleError(error: RuleError): string {
  return `line ${error.line}, column ${error.column}: ${error.message}`;
}
