/**
 * The audit log's storage: append-only. There is no way to change an entry and the
 * only way to delete one is retention (`prune`). Implemented for both dialects by
 * src/db/audit-store.ts.
 */
import type { AuditEvent } from "../audit/events";

/** A value of a before/after summary: short text, a number, a flag, or nothing. */
export type AuditValue = string | number | boolean | null;
export type AuditSummary = Record<string, AuditValue>;

export interface AuditData {
  before?: AuditSummary;
  after?: AuditSummary;
}

export interface NewAuditEntry {
  organizationId: number;
  event: AuditEvent;
  /** The user who acted (for an API request, the token's user); null for someone not signed in. */
  actorUserId: number | null;
  /** The actor's email as it was then (users can be deleted or renamed later). */
  actorLabel: string;
  /** The API token the request carried, when it came through the web API. */
  actorTokenId: number | null;
  ipAddress: string | null;
  targetType: string;
  targetId: string | null;
  targetLabel: string;
  data: AuditData;
  createdAt: number;
}

/** A stored entry; its event is read as text (an event a later version renamed still shows). */
export interface AuditEntry extends Omit<NewAuditEntry, "event"> {
  id: number;
  event: string;
}

export interface AuditQuery {
  event?: AuditEvent;
  actorUserId?: number;
  /** Milliseconds since the epoch, inclusive. */
  from?: number;
  /** Milliseconds since the epoch, exclusive. */
  to?: number;
  /** Entries older than this id (the next page of a newest-first list). */
  beforeId?: number;
  limit: number;
}

export interface AuditActor {
  userId: number;
  label: string;
}

export interface AuditLog {
  append(entry: NewAuditEntry): Promise<void>;
  /** One entry in each organization the user belongs to (signing in is the user's, not one organization's). */
  appendPerMembership(userId: number, entry: Omit<NewAuditEntry, "organizationId">): Promise<void>;
  /** Newest first. */
  list(organizationId: number, query: AuditQuery): Promise<AuditEntry[]>;
  /** Everyone who appears as an actor in the organization's log, for the page's filter. */
  actors(organizationId: number): Promise<AuditActor[]>;
  /** Deletes up to `batch` entries older than `before` (ms); retention alone calls it. */
  prune(before: number, batch: number): Promise<number>;
}
