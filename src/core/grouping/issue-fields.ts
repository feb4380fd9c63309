/**
 * The fields an issue shows, derived from one event as Sentry derives them (its event types
 * "error" and "default"): the title is the top exception's `Type: value` (first line of the
 * value) or the message; `metadata` holds type, value, and the crashing in-app frame's file and
 * function; the culprit is the SDK's own, else the transaction, else that frame as
 * `module in function`. A fingerprint rule's `title="…"` replaces the title.
 */
import { crashFrame, topException } from "./event-view";
import { ISSUE_FIELD_LIMITS } from "./limits";
import type { GroupingResult } from "./types";
import type { Level, NormalizedEvent } from "../normalize/types";

export interface IssueMetadata {
  type?: string;
  value?: string;
  filename?: string;
  function?: string;
  title?: string;
}

export interface IssueFields {
  /** Sentry's event type: `error` with an exception, `default` for messages. */
  type: "error" | "default";
  title: string;
  culprit: string;
  level: Level;
  metadata: IssueMetadata;
}

const UNLABELED = "<unlabeled event>";

function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

function firstLine(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const line = text.trim().split("\n", 1)[0]!.trim();
  return line === "" ? undefined : line;
}

function isNamed(fn: string | undefined): fn is string {
  return fn !== undefined && fn !== "?" && fn !== "<anonymous>";
}

function frameCulprit(event: NormalizedEvent): string {
  const frame = crashFrame(event);
  if (!frame) return "";
  const where = frame.module ?? frame.filename ?? frame.abs_path;
  const fn = isNamed(frame.function) ? frame.function : undefined;
  if (where !== undefined && fn !== undefined) return `${where} in ${fn}`;
  return where ?? fn ?? "";
}

export function deriveIssueFields(event: NormalizedEvent, grouping?: Pick<GroupingResult, "title">): IssueFields {
  const L = ISSUE_FIELD_LIMITS;
  const top = topException(event);
  const metadata: IssueMetadata = {};
  let type: IssueFields["type"];
  let title: string;

  // A JS SDK message carries a synthetic exception without a type: it is still a message.
  if (top !== undefined && (top.type !== undefined || event.logentry === undefined)) {
    type = "error";
    if (top.type !== undefined) metadata.type = cut(top.type, L.metadataSymbolChars);
    if (top.value !== undefined) metadata.value = cut(top.value, L.metadataValueChars);
    const frame = crashFrame(event);
    const filename = frame?.filename ?? frame?.abs_path;
    if (filename !== undefined) metadata.filename = cut(filename, L.metadataSymbolChars);
    if (isNamed(frame?.function)) metadata.function = cut(frame.function, L.metadataSymbolChars);
    const value = firstLine(top.value);
    title = top.type !== undefined && value !== undefined ? `${top.type}: ${value}` : (top.type ?? value ?? UNLABELED);
  } else {
    type = "default";
    title = firstLine(event.logentry?.formatted) ?? UNLABELED;
    metadata.title = cut(title, L.metadataValueChars);
  }

  if (grouping?.title) {
    title = grouping.title;
    metadata.title = cut(grouping.title, L.metadataValueChars);
  }
  const culprit = event.culprit ?? event.transaction ?? frameCulprit(event);
  return { type, title: cut(title, L.titleChars), culprit: cut(culprit, L.culpritChars), level: event.level, metadata };
}
