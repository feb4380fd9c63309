import { z } from "zod";
import type { Ctx } from "../context";
import type { OrgAccess } from "../orgs/access";
import type { AuditActor, AuditEntry, AuditQuery } from "../ports/audit";
import { validate } from "../validate";
import { AUDIT_EVENTS, isAuditEvent } from "./events";

/** One page of the log: the page shows 50, the API up to 100. */
export const AUDIT_PAGE = { default: 50, max: 100 } as const;

const DAY = 86_400_000;
/** `2026-11-27` (the page's date inputs) or a full ISO time (the API). */
const When = z
  .string()
  .max(40)
  .refine((s) => !Number.isNaN(Date.parse(s)), "a date like 2026-11-27")
  .transform((s) => ({ ms: Date.parse(s), dateOnly: /^\d{4}-\d{2}-\d{2}$/.test(s) }));

/** The filters as a request sends them (query string or form): every field optional, all bounded. */
export const AuditFilter = z.object({
  event: z
    .string()
    .max(64)
    .refine(isAuditEvent, { message: `event must be one of ${Object.keys(AUDIT_EVENTS).join(", ")}` })
    .optional(),
  actor: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31)
    .optional(),
  start: When.optional(),
  end: When.optional(),
  cursor: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 53)
    .optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE.max).default(AUDIT_PAGE.default),
});
export type AuditFilter = z.input<typeof AuditFilter>;

export interface AuditPage {
  entries: AuditEntry[];
  /** The cursor of the next (older) page, or null on the last one. */
  nextCursor: number | null;
  actors: AuditActor[];
}

/**
 * The organization's audit log, newest first, filtered by event, actor and date range. An end
 * given as a date includes that whole day (UTC), as the page's "to" field means it.
 */
export async function listAuditLog({ ctx, input }: { ctx: Ctx; input: { access: OrgAccess; filter: AuditFilter } }): Promise<AuditPage> {
  const f = validate(AuditFilter, input.filter);
  const query: AuditQuery = {
    limit: f.limit + 1,
    ...(f.event !== undefined && isAuditEvent(f.event) ? { event: f.event } : {}),
    ...(f.actor !== undefined ? { actorUserId: f.actor } : {}),
    ...(f.start ? { from: f.start.ms } : {}),
    ...(f.end ? { to: f.end.dateOnly ? f.end.ms + DAY : f.end.ms } : {}),
    ...(f.cursor !== undefined ? { beforeId: f.cursor } : {}),
  };
  const [rows, actors] = await Promise.all([ctx.audit.list(input.access.org.id, query), ctx.audit.actors(input.access.org.id)]);
  const entries = rows.slice(0, f.limit);
  return { entries, nextCursor: rows.length > f.limit ? entries[entries.length - 1]!.id : null, actors };
}
