/**
 * Applies fingerprint rules to an event: the first rule whose matchers all hold wins (docs.sentry.io
 * "Fingerprint Rules"). Matchers on frames must all hold on the same frame, and matchers on the
 * exception (`error.type`, `error.value`) on the same exception of the chain; `!` negates one
 * matcher. `stack.abs_path` tries the frame's `abs_path` and `filename`, and a relative path also
 * as `/path`, so `**∕foo.js` matches `foo.js`.
 *
 * Cost is bounded per event: at most `RULE_LIMITS.framesMatched` frames, each matcher's answer
 * cached per distinct value, and a step budget shared by all globs; an event that exhausts it
 * matches no rule (only an event built to do so can, and it then gets the default grouping).
 */
import { eventFamily, messageTexts, stacktraces, tagValue } from "../event-view";
import { RULE_LIMITS } from "../limits";
import type { ExceptionValue, Frame, NormalizedEvent } from "../../normalize/types";
import type { MatchBudget } from "./glob";
import type { FingerprintRule, RuleMatcher } from "./types";

interface Facts {
  event: NormalizedEvent;
  family: string;
  messages: string[];
  /** At least one entry: an empty one stands for "no exception", so negations can hold. */
  exceptions: Array<Pick<ExceptionValue, "type" | "value">>;
  frames: Frame[];
}

function factsOf(event: NormalizedEvent): Facts {
  const frames: Frame[] = [];
  for (const stack of stacktraces(event)) {
    for (let i = stack.frames.length - 1; i >= 0 && frames.length < RULE_LIMITS.framesMatched; i--) frames.push(stack.frames[i]!);
  }
  const exceptions = event.exception?.values ?? [];
  return {
    event,
    family: eventFamily(event),
    messages: messageTexts(event),
    exceptions: exceptions.length > 0 ? exceptions : [{}],
    frames: frames.length > 0 ? frames : [{}],
  };
}

/** Matching state for one event: the shared budget and each matcher's answers so far. */
class Matching {
  readonly budget: MatchBudget = { left: RULE_LIMITS.matchSteps };
  private readonly answers = new Map<RuleMatcher, Map<string, boolean>>();

  get exhausted(): boolean {
    return this.budget.left < 0;
  }

  holds(matcher: RuleMatcher, values: ReadonlyArray<string | undefined>): boolean {
    let cache = this.answers.get(matcher);
    if (!cache) this.answers.set(matcher, (cache = new Map()));
    let hit = false;
    for (const value of values) {
      if (value === undefined) continue;
      let answer = cache.get(value);
      if (answer === undefined) {
        answer = matcher.test(value, this.budget);
        if (!this.exhausted) cache.set(value, answer);
      }
      if ((hit = answer)) break;
    }
    return hit !== matcher.negated;
  }
}

function eventValues(matcher: RuleMatcher, facts: Facts): Array<string | undefined> {
  const { event } = facts;
  switch (matcher.key) {
    case "message":
      return facts.messages;
    case "logger":
      return [event.logger];
    case "level":
      return [event.level];
    case "sdk":
      return [event.sdk?.name];
    case "family":
      return [facts.family];
    case "tags":
      return [tagValue(event, matcher.tag ?? "")];
    default:
      return [];
  }
}

function exceptionValues(matcher: RuleMatcher, exception: Pick<ExceptionValue, "type" | "value">): Array<string | undefined> {
  return [matcher.key === "error.type" ? exception.type : exception.value];
}

function withRelative(path: string | undefined): Array<string | undefined> {
  return path === undefined || path.startsWith("/") ? [path] : [path, "/" + path];
}

function frameValues(matcher: RuleMatcher, frame: Frame): Array<string | undefined> {
  switch (matcher.key) {
    case "stack.function":
      return [frame.function];
    case "stack.module":
      return [frame.module];
    case "stack.abs_path":
      return [...withRelative(frame.abs_path), ...withRelative(frame.filename)];
    case "stack.package":
      return withRelative(frame.package);
    case "app":
      return [frame.in_app === true ? "yes" : "no"];
    default:
      return [];
  }
}

function ruleMatches(rule: FingerprintRule, facts: Facts, m: Matching): boolean {
  const byScope = { event: [] as RuleMatcher[], exception: [] as RuleMatcher[], frame: [] as RuleMatcher[] };
  for (const matcher of rule.matchers) byScope[matcher.scope].push(matcher);

  if (!byScope.event.every((x) => m.holds(x, eventValues(x, facts)))) return false;
  const exceptionOk = (e: Facts["exceptions"][number]) => byScope.exception.every((x) => m.holds(x, exceptionValues(x, e)));
  if (byScope.exception.length > 0 && !facts.exceptions.some(exceptionOk)) return false;
  const frameOk = (f: Frame) => byScope.frame.every((x) => m.holds(x, frameValues(x, f)));
  if (byScope.frame.length > 0 && !facts.frames.some(frameOk)) return false;
  return !m.exhausted;
}

/** The first rule that matches the event, or undefined. */
export function matchFingerprintRules(rules: readonly FingerprintRule[], event: NormalizedEvent): FingerprintRule | undefined {
  if (rules.length === 0) return undefined;
  const facts = factsOf(event);
  const matching = new Matching();
  for (const rule of rules) {
    if (ruleMatches(rule, facts, matching)) return rule;
    if (matching.exhausted) return undefined;
  }
  return undefined;
}
