import { AUDIT_EVENT_NAMES, AUDIT_EVENTS, isAuditEvent } from "../../core/audit/events";
import { listAuditLog } from "../../core/audit/list";
import type { AuditEntry } from "../../core/ports/audit";
import { pagedJson } from "./pagination";
import { route, type ApiRoute } from "./route";

const iso = (ms: number) => new Date(ms).toISOString();

/** "ann@example.com changed a member's role: bob@example.com": the line a person reads. */
export function auditNote(entry: AuditEntry): string {
  const words = isAuditEvent(entry.event) ? AUDIT_EVENTS[entry.event] : entry.event;
  return `${words}: ${entry.targetLabel}`;
}

/**
 * One entry in the shape of Sentry's organization audit log (`id`, `actor`, `event`, `ipAddress`,
 * `note`, `targetObject`, `targetUser`, `data`, `dateCreated`), plus Telltale's `targetType`,
 * `targetLabel` and `tokenId` (the API token the change came through, if any).
 */
export function serializeAuditEntry(entry: AuditEntry) {
  const member = entry.targetType === "member" || entry.targetType === "user";
  return {
    id: String(entry.id),
    actor:
      entry.actorUserId === null
        ? { id: null, name: entry.actorLabel, email: entry.actorLabel, username: entry.actorLabel }
        : { id: String(entry.actorUserId), name: entry.actorLabel, email: entry.actorLabel, username: entry.actorLabel },
    event: entry.event,
    ipAddress: entry.ipAddress,
    note: auditNote(entry),
    targetObject: entry.targetId !== null && /^\d+$/.test(entry.targetId) ? Number(entry.targetId) : null,
    targetUser: member && entry.targetId !== null ? { id: entry.targetId, email: entry.targetLabel, name: entry.targetLabel } : null,
    targetType: entry.targetType,
    targetLabel: entry.targetLabel,
    tokenId: entry.actorTokenId === null ? null : String(entry.actorTokenId),
    data: entry.data,
    dateCreated: iso(entry.createdAt),
  };
}

/**
 * `GET /api/0/organizations/{org}/audit-logs/`, as Sentry answers it: `{ rows, options }` where
 * `options` lists the events one may filter by (https://docs.sentry.io/product/accounts/audit-logs/).
 * Filters: `event`, `actor` (a user id), `start` and `end` (ISO dates), `cursor`, `per_page`. Read
 * only: the log has no route that changes or deletes an entry.
 */
export const AUDIT_ROUTES: ApiRoute[] = [
  route("GET", "/organizations/{}/audit-logs", "org:audit", async ({ ctx, access, query }) => {
    const get = (name: string) => query.get(name) ?? undefined;
    const filter = {
      event: get("event"),
      actor: get("actor"),
      start: get("start"),
      end: get("end"),
      cursor: get("cursor"),
      limit: get("per_page"),
    };
    const page = await listAuditLog({ ctx, input: { access, filter } });
    const base = `${ctx.publicUrl}/api/0/organizations/${access.org.slug}/audit-logs/`;
    // The log pages one way (by id, newest first): no previous page to offer.
    const cursors = { previousCursor: null, nextCursor: page.nextCursor === null ? null : String(page.nextCursor) };
    return pagedJson({ rows: page.entries.map(serializeAuditEntry), options: AUDIT_EVENT_NAMES }, base, query, cursors);
  }),
];
