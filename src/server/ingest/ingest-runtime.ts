import type { Settings } from "../../config/settings";
import type { Ctx } from "../../core/context";
import { DEFAULT_ENVELOPE_LIMITS, type EnvelopeLimits } from "../../core/envelope/index";
import type { IngestRuntime } from "../../core/ingest/accept";
import { MemoryBudget } from "../../core/ingest/memory";
import { QueueWriter } from "../../core/ingest/queue-writer";
import { KeyCache } from "../../core/ingest/project-config";
import { OutcomeBuffer } from "../../core/outcomes/record";
import { RateLimiter } from "../../core/ratelimit/limiter";
import { parseQuotaList } from "../../core/ratelimit/quota";
import { log } from "../log";
import { storageFullWatch } from "../storage-alarm";
import { tempAttachmentSpool } from "./attachment-spool";

/** The envelope limits the settings table names; the rest keep Relay's defaults. */
export function envelopeLimits(s: Settings["ingest"]): EnvelopeLimits {
  return {
    ...DEFAULT_ENVELOPE_LIMITS,
    maxEnvelopeBytes: s.maxEnvelopeBytes,
    maxEventBytes: s.maxEventBytes,
    maxTransactionBytes: s.maxEventBytes,
    maxAttachmentBytes: s.maxAttachmentBytes,
    maxAttachmentsBytes: Math.max(s.maxAttachmentBytes, DEFAULT_ENVELOPE_LIMITS.maxAttachmentsBytes),
    maxAttachmentsCount: s.maxAttachments,
    maxSessionsCount: s.maxSessions,
    maxItemsCount: s.maxEnvelopeItems,
  };
}

/**
 * PostgreSQL: group commits in flight at once (each a round trip and a WAL flush that others
 * overlap): up to four, leaving the pool two connections for outcomes, keys and the UI.
 */
function pgQueueWriters(poolMax: number): number {
  return Math.max(1, Math.min(4, poolMax - 2));
}

export function createIngestRuntime(
  ctx: Ctx,
  settings: Settings,
  queueDepth: number,
  options: { keyCacheMs?: number } = {},
): IngestRuntime {
  const queue = {
    depth: queueDepth,
    max: settings.ingest.maxQueue,
    enqueued() {
      queue.depth++;
    },
  };
  return {
    ctx,
    keys: new KeyCache(ctx, options.keyCacheMs ?? 10_000),
    limiter: new RateLimiter(ctx.now),
    globalQuotas: parseQuotaList(settings.ingest.rateLimits, "organization", "global"),
    outcomes: new OutcomeBuffer(ctx.outcomes, (error) => log("error", "writing outcomes failed", { error: String(error) })),
    limits: envelopeLimits(settings.ingest),
    maxItemsBytes: settings.ingest.maxItemsBytes,
    maxRequestBytes: settings.ingest.maxRequestBytes,
    memory: new MemoryBudget(settings.ingest.memoryBytes),
    queue,
    enqueue:
      settings.database.kind === "postgres"
        ? new QueueWriter(ctx.ingestQueue, false, pgQueueWriters(settings.database.poolMax))
        : new QueueWriter(ctx.ingestQueue, true),
    storage: storageFullWatch(),
    spool: tempAttachmentSpool(),
  };
}
