import type { Ctx } from "../context";
import type { AuditSummary, AuditValue, NewAuditEntry } from "../ports/audit";
import type { AuditEvent } from "./events";

/** Who acted, as the entry point knows it: the signed-in user (or a token's), the token, the client address. */
export interface AuditActor {
  user: { id: number; email: string } | null;
  /** For someone not signed in (a failed sign-in): the address they typed. */
  label?: string;
  tokenId: number | null;
  ip: string | null;
}

/** What a handler says it changed: one event, its target, and a short before/after summary. */
export interface AuditChange {
  event: AuditEvent;
  target: { type: string; id: string | number | null; label: string };
  before?: AuditSummary;
  after?: AuditSummary;
}

/** What the permission wrappers hand every action and route of an audited row: call it once per change made. */
export type Audit = (change: AuditChange) => Promise<void>;

// Named limits: everything here is typed by someone (names, labels, addresses), so it is capped.
export const AUDIT_LIMITS = { label: 200, value: 200, keys: 20, ip: 64 } as const;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function bounded(summary: AuditSummary | undefined): AuditSummary | undefined {
  if (!summary) return undefined;
  const out: AuditSummary = {};
  for (const [key, value] of Object.entries(summary).slice(0, AUDIT_LIMITS.keys)) {
    const v: AuditValue = typeof value === "string" ? cut(value, AUDIT_LIMITS.value) : value;
    out[cut(key, 64)] = v;
  }
  return out;
}

/** The row to store, without its organization, from an actor and a change; capped. */
export function auditEntry(ctx: Ctx, actor: AuditActor, change: AuditChange): Omit<NewAuditEntry, "organizationId"> {
  const before = bounded(change.before);
  const after = bounded(change.after);
  return {
    event: change.event,
    actorUserId: actor.user?.id ?? null,
    actorLabel: cut(actor.user?.email ?? actor.label ?? "unknown", AUDIT_LIMITS.label),
    actorTokenId: actor.tokenId,
    ipAddress: actor.ip === null ? null : cut(actor.ip, AUDIT_LIMITS.ip),
    targetType: change.target.type,
    targetId: change.target.id === null ? null : String(change.target.id),
    targetLabel: cut(change.target.label, AUDIT_LIMITS.label),
    data: { ...(before ? { before } : {}), ...(after ? { after } : {}) },
    createdAt: ctx.now(),
  };
}

/**
 * The recorder an entry point hands its handler: entries go to `organizationId`, as `actor`, and
 * only for the events the permission row declares (`allowed`) — recording another is a bug the
 * coverage test (test/integration/audit-coverage.test.ts) would also catch.
 */
export function auditor(ctx: Ctx, organizationId: number, actor: AuditActor, allowed: readonly AuditEvent[]): Audit {
  return async (change) => {
    if (!allowed.includes(change.event)) throw new Error(`audit event '${change.event}' is not declared by this permission row`);
    await ctx.audit.append({ ...auditEntry(ctx, actor, change), organizationId });
  };
}

/** A change that belongs to a user rather than one organization (signing in): one entry in each of their organizations. */
export async function auditForUser(ctx: Ctx, userId: number, actor: AuditActor, change: AuditChange): Promise<void> {
  await ctx.audit.appendPerMembership(userId, auditEntry(ctx, actor, change));
}
