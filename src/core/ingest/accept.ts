import { findPublicKey, type AuthSources } from "../auth/ingest-auth";
import type { Ctx } from "../context";
import {
  envelopeEvents,
  ITEM_CATEGORIES,
  isEnvelopeError,
  itemQuantities,
  knownItemType,
  readEnvelope,
  statusOf,
  type EnvelopeHeader,
  type EnvelopeLimits,
  type ItemHeader,
} from "../envelope/index";
import type { OutcomeBuffer } from "../outcomes/record";
import type { RateLimiter } from "../ratelimit/limiter";
import type { ActiveLimit, Quota } from "../ratelimit/quota";
import { AttachmentWriter } from "./attachments";
import { QueueBusyError, type QueueRow, type QueueWriter } from "./queue-writer";
import type { MemoryBudget } from "./memory";
import type { KeyCache, KeyConfig } from "./project-config";
import type { StorageFullWatch } from "./storage-full";
import type { AttachmentSpool } from "../ports/attachment-spool";
import { serializeEnvelope, type KeptItem } from "./serialize";

/** Everything the request path needs, built once per process (src/server/ingest/ingest-runtime.ts). */
export interface IngestRuntime {
  ctx: Ctx;
  keys: KeyCache;
  limiter: RateLimiter;
  globalQuotas: readonly Quota[];
  outcomes: OutcomeBuffer;
  limits: EnvelopeLimits;
  maxItemsBytes: number;
  /** Compressed bytes on the wire per request. */
  maxRequestBytes: number;
  memory: MemoryBudget;
  queue: QueueGauge;
  /** Writes rows to the ingest queue, many requests' in one statement. */
  enqueue: QueueWriter;
  /** Whether storage is full, logged once per interval and shown to administrators (src/core/ingest/storage-full.ts). */
  storage: StorageFullWatch;
  /** Where attachment bytes wait until their envelope is read and kept. */
  spool: AttachmentSpool;
}

/** Undigested envelopes, counted in this process; the digest step reports what it took. */
export interface QueueGauge {
  depth: number;
  readonly max: number;
  enqueued(): void;
}

export type AcceptResult =
  | { status: 200; id: string | null; rateLimits: ActiveLimit[] }
  | { status: 429; reason: string; rateLimits: ActiveLimit[] }
  | { status: 400 | 401 | 403 | 413 | 503; reason: string };

export interface EnvelopeRequest {
  projectId: number;
  auth: Omit<AuthSources, "envelopeDsn">;
  /** The decompressed body as it arrives. */
  body: AsyncIterable<Buffer>;
  /**
   * The same bytes when they are in memory in one buffer already: stored as they are when every
   * item is kept, instead of being written out again item by item.
   */
  whole?: Buffer;
  receivedAt: number;
}

type Auth = { ok: true; key: KeyConfig } | { ok: false; status: 400 | 401 | 403; reason: string };

const hasRequestAuth = (a: EnvelopeRequest["auth"]) =>
  a.xSentryAuth !== undefined || (a.authorization !== undefined && /^\s*sentry\s/i.test(a.authorization)) || a.query.has("sentry_key");

export async function authenticate(rt: IngestRuntime, projectId: number, sources: AuthSources): Promise<Auth> {
  const found = findPublicKey(sources);
  if (!found.ok) return { ok: false, status: 401, reason: found.reason };
  if (found.projectId !== undefined && Number(found.projectId) !== projectId) {
    return { ok: false, status: 400, reason: "the DSN in the envelope header names another project than the URL" };
  }
  const key = await rt.keys.get(found.publicKey);
  if (!key) return { ok: false, status: 401, reason: "unknown public key" };
  if (key.projectId !== projectId) return { ok: false, status: 403, reason: "the public key does not belong to this project" };
  if (!key.active) return { ok: false, status: 403, reason: "the public key is disabled" };
  return { ok: true, key };
}

/**
 * The request path of `/envelope/`: authenticate, apply quotas item by item, stream
 * attachments to storage, then store the kept items in the ingest queue in one transaction
 * before answering. Digesting them (filters, normalization, grouping) happens later.
 */
export async function acceptEnvelope(rt: IngestRuntime, req: EnvelopeRequest): Promise<AcceptResult> {
  if (rt.queue.depth >= rt.queue.max) return { status: 503, reason: "the digest queue is full; retry later" };
  let key: KeyConfig | null = null;
  if (hasRequestAuth(req.auth)) {
    const auth = await authenticate(rt, req.projectId, req.auth);
    if (!auth.ok) return auth;
    key = auth.key;
  }

  const state = new AcceptState(rt, req.projectId, req.receivedAt, req.whole);
  let header: EnvelopeHeader | null = null;
  let streamed: { header: ItemHeader; chunks: Buffer[]; bytes: number; attachment: boolean } | null = null;
  try {
    const events = req.whole ? envelopeEvents(req.whole, rt.limits) : readEnvelope(req.body, rt.limits);
    for await (const event of events) {
      switch (event.kind) {
        case "header": {
          header = event.header;
          if (event.header.dsn !== undefined || !key) {
            const auth = await authenticate(rt, req.projectId, { ...req.auth, envelopeDsn: event.header.dsn });
            if (!auth.ok) return auth;
            key = auth.key;
          }
          state.quotas = [...rt.globalQuotas, ...key.quotas];
          break;
        }
        case "item": {
          const result = state.keepItem(event.item.header, event.item.payload);
          if (result) return result;
          break;
        }
        case "item_start": {
          const attachment = event.header.knownType === "attachment";
          streamed = { header: event.header, chunks: [], bytes: 0, attachment };
          if (attachment) await state.startAttachment(event.header);
          break;
        }
        case "item_chunk": {
          if (!streamed) break;
          streamed.bytes += event.chunk.length;
          if (streamed.attachment) await state.attachmentChunk(event.chunk);
          else {
            const refusal = state.reserve(event.chunk.length);
            if (refusal) return refusal;
            streamed.chunks.push(event.chunk);
          }
          break;
        }
        case "item_end": {
          if (streamed?.attachment) state.endAttachment();
          else if (streamed) {
            const result = state.keepItem(streamed.header, Buffer.concat(streamed.chunks), true);
            if (result) return result;
          }
          streamed = null;
          break;
        }
      }
    }
    if (!header || !key) return { status: 401, reason: "missing authorization information" };
    return await state.commit(header, key.keyId);
  } catch (error) {
    if (!isEnvelopeError(error)) throw error;
    if (key)
      state.count(
        error.itemType ? (ITEM_CATEGORIES[knownItemType(error.itemType) ?? "event"] ?? "default") : "default",
        statusOf(error) === 413 ? "too_large" : "invalid",
        error.reason,
        1,
      );
    return { status: statusOf(error), reason: error.message };
  } finally {
    await state.cleanup();
  }
}

/** The per-request bookkeeping of `acceptEnvelope`. */
class AcceptState {
  quotas: Quota[] = [];
  private readonly kept: KeptItem[] = [];
  /** Items read so far, kept or not, attachments included. */
  private seen = 0;
  private keptBytes = 0;
  private reserved = 0;
  private readonly limited: ActiveLimit[] = [];
  private readonly attachments: AttachmentWriter;
  private committed = false;

  constructor(
    private readonly rt: IngestRuntime,
    private readonly projectId: number,
    private readonly receivedAt: number,
    private readonly whole: Buffer | undefined,
  ) {
    this.attachments = new AttachmentWriter(rt.ctx, projectId, receivedAt, rt.spool);
  }

  count(category: string, outcome: "rate_limited" | "invalid" | "too_large" | "accepted", reason: string, quantity: number): void {
    this.rt.outcomes.add({ projectId: this.projectId, category, outcome, reason, quantity, at: this.receivedAt });
  }

  reserve(bytes: number): AcceptResult | null {
    if (this.keptBytes + bytes > this.rt.maxItemsBytes) {
      return { status: 413, reason: `the envelope's items exceed ${this.rt.maxItemsBytes} bytes held at once (TELLTALE_MAX_ITEMS_BYTES)` };
    }
    if (!this.rt.memory.tryReserve(bytes)) return { status: 503, reason: "the server is at its ingest memory limit; retry later" };
    this.keptBytes += bytes;
    this.reserved += bytes;
    return null;
  }

  /** Applies quotas to one item; kept items are stored at commit. */
  keepItem(header: ItemHeader, payload: Buffer, alreadyReserved = false): AcceptResult | null {
    this.seen++;
    if (this.isRateLimited(header, payload.length)) return null;
    if (!alreadyReserved) {
      const refusal = this.reserve(payload.length);
      if (refusal) return refusal;
    }
    this.kept.push({ header: header.raw, payload });
    return null;
  }

  private isRateLimited(header: ItemHeader, bytes: number): boolean {
    const quantities = itemQuantities(header, bytes);
    for (const q of quantities) {
      const refused = this.rt.limiter.consume(this.quotas, q.category, q.quantity);
      if (refused.length === 0) continue;
      this.limited.push(...refused);
      for (const each of quantities) this.count(each.category, "rate_limited", refused[0]?.reason ?? "quota", each.quantity);
      return true;
    }
    return false;
  }

  async startAttachment(header: ItemHeader): Promise<void> {
    this.seen++;
    if (this.isRateLimited(header, header.length ?? 1)) return this.attachments.skip();
    await this.attachments.start(header);
  }

  attachmentChunk(chunk: Buffer): Promise<void> {
    return this.attachments.write(chunk);
  }

  endAttachment(): void {
    this.attachments.end();
  }

  async commit(header: EnvelopeHeader, keyId: number): Promise<AcceptResult> {
    const rateLimits = dedupe(this.limited);
    if (this.kept.length === 0 && this.attachments.count === 0) {
      if (rateLimits.length > 0)
        return { status: 429, reason: "Sentry dropped data due to a quota or rate limit being reached", rateLimits };
      return { status: 200, id: header.eventId ?? null, rateLimits };
    }
    const body =
      this.kept.length === 0 ? null : this.kept.length === this.seen && this.whole ? this.whole : serializeEnvelope(header.raw, this.kept);
    const row: QueueRow | null = body
      ? { project_id: this.projectId, key_id: keyId, endpoint: "envelope", received_at: this.receivedAt, body }
      : null;
    // Attachments are complete before their event is queued, so the digest finds them; the
    // queue row is written in a group commit with other requests' (on SQLite to the queue file).
    if (this.attachments.count > 0) {
      await this.attachments.store();
      await this.attachments.complete(header.eventId ?? null);
    }
    if (row) {
      try {
        await this.rt.enqueue.add(row);
      } catch (error) {
        if (error instanceof QueueBusyError) return { status: 503, reason: "the ingest queue is busy; retry later" };
        throw error;
      }
    }
    this.committed = true;
    if (body) this.rt.queue.enqueued();
    for (const a of this.attachments.accepted) {
      this.count("attachment", "accepted", "", Math.max(1, a.bytes));
      this.count("attachment_item", "accepted", "", 1);
    }
    return { status: 200, id: header.eventId ?? null, rateLimits };
  }

  async cleanup(): Promise<void> {
    this.rt.memory.release(this.reserved);
    this.reserved = 0;
    await this.attachments.discard(this.committed);
  }
}

/** One entry per distinct limit, keeping the longest retry. */
function dedupe(limits: ActiveLimit[]): ActiveLimit[] {
  const byKey = new Map<string, ActiveLimit>();
  for (const l of limits) {
    const k = `${(l.categories ?? []).join(";")}:${l.scope}:${l.reason}`;
    const prev = byKey.get(k);
    if (!prev || prev.retryAfterSeconds < l.retryAfterSeconds) byKey.set(k, l);
  }
  return [...byKey.values()];
}
