import { randomUUID } from "node:crypto";
import { request, type ClientRequest, type IncomingHttpHeaders } from "node:http";

/** A fresh event id in the form SDKs send: 32 lowercase hex characters. */
export const newEventId = (): string => randomUUID().replaceAll("-", "");

export interface ItemSpec {
  type: string;
  payload: Buffer | string;
  /** Extra item header fields (filename, content_type, item_count…). */
  headers?: Record<string, unknown>;
  /** The declared `length`: the payload's byte length unless given; null leaves it out (implicit length). */
  length?: number | null;
}

/** An envelope as the spec writes it: header line, then each item's header line and payload, `\n`-separated. */
export function buildEnvelope(header: Record<string, unknown>, items: readonly ItemSpec[]): Buffer {
  const parts: Buffer[] = [Buffer.from(JSON.stringify(header))];
  for (const item of items) {
    const payload = typeof item.payload === "string" ? Buffer.from(item.payload) : item.payload;
    const length = item.length === undefined ? payload.length : item.length;
    const itemHeader = { type: item.type, ...item.headers, ...(length === null ? {} : { length }) };
    parts.push(Buffer.from(`\n${JSON.stringify(itemHeader)}\n`), payload);
  }
  parts.push(Buffer.from("\n"));
  return Buffer.concat(parts);
}

export const eventItem = (eventId: string, message: string, extra: Record<string, unknown> = {}): ItemSpec => ({
  type: "event",
  payload: JSON.stringify({ event_id: eventId, message, level: "error", platform: "javascript", timestamp: Date.now() / 1000, ...extra }),
});

/** One error event: what `captureMessage` sends. */
export const errorEnvelope = (eventId: string, message: string, header: Record<string, unknown> = {}): Buffer =>
  buildEnvelope({ event_id: eventId, sent_at: new Date().toISOString(), ...header }, [eventItem(eventId, message)]);

const hex = (bytes: number) =>
  randomUUID()
    .replaceAll("-", "")
    .slice(0, bytes * 2);

/** A transaction event with one child span (older SDKs' tracing). */
export function transactionEnvelope(eventId: string, name: string): Buffer {
  const tx = transactionOf(eventId, name);
  return buildEnvelope({ event_id: eventId, trace: { trace_id: tx.contexts.trace.trace_id } }, [
    { type: "transaction", payload: JSON.stringify(tx) },
  ]);
}

/** The payload of a transaction item named `GET /{label}`, with a fresh event id. */
export const transactionPayload = (label: string): string => JSON.stringify(transactionOf(newEventId(), `GET /${label}`));

function transactionOf(eventId: string, name: string) {
  const now = Date.now() / 1000;
  const traceId = newEventId();
  const spanId = hex(8);
  const tx = {
    event_id: eventId,
    type: "transaction",
    transaction: name,
    start_timestamp: now - 1,
    timestamp: now,
    contexts: { trace: { trace_id: traceId, span_id: spanId, op: "http.server", status: "ok" } },
    spans: [
      {
        trace_id: traceId,
        span_id: hex(8),
        parent_span_id: spanId,
        op: "db",
        description: "select 1",
        start_timestamp: now - 0.5,
        timestamp: now - 0.4,
      },
    ],
  };
  return tx;
}

/** A span v2 container with one segment span (the JS SDKs from 10.x on). */
export function spanEnvelope(name: string): Buffer {
  const now = Date.now() / 1000;
  const traceId = newEventId();
  const span = {
    trace_id: traceId,
    span_id: hex(8),
    name,
    start_timestamp: now - 1,
    end_timestamp: now,
    status: "ok",
    is_segment: true,
    attributes: {},
  };
  return buildEnvelope({ trace: { trace_id: traceId } }, [
    {
      type: "span",
      payload: JSON.stringify({ items: [span] }),
      headers: { item_count: 1, content_type: "application/vnd.sentry.items.span.v2+json" },
    },
  ]);
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export type Body = Buffer | Iterable<Buffer> | AsyncIterable<Buffer>;

/**
 * One HTTP request on a fresh connection, with full control of the body: a Buffer goes with
 * a `content-length`, an iterable is sent chunked as it is produced (backpressure honoured).
 * When the server answers before the body is sent (an early 4xx), producing stops and the
 * answer is returned.
 */
export function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: Body } = {}): Promise<Reply> {
  const { method = "POST", headers = {}, body } = options;
  return new Promise<Reply>((resolve, reject) => {
    let answered = false;
    const req = request(url, { method, headers, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") });
        req.destroy();
      });
      res.on("error", reject);
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (body === undefined) return void req.end();
    if (Buffer.isBuffer(body)) {
      req.setHeader("content-length", body.length);
      return void req.end(body);
    }
    void (async () => {
      for await (const chunk of body) {
        if (answered || req.destroyed) return;
        if (!req.write(chunk)) await writable(req);
      }
      if (!answered && !req.destroyed) req.end();
    })().catch((error: unknown) => {
      req.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

/** Resolves when a request that reported backpressure drains, or closes. */
function writable(req: ClientRequest): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      req.off("drain", done);
      req.off("close", done);
      resolve();
    };
    req.on("drain", done);
    req.on("close", done);
  });
}

/** Splits a buffer into chunks of `size` bytes: a chunked body whose boundaries fall mid-line. */
export function* chunksOf(buffer: Buffer, size: number): Generator<Buffer> {
  for (let i = 0; i < buffer.length; i += size) yield buffer.subarray(i, i + size);
}

/**
 * Samples this process's resident set size every few milliseconds while `work` runs and
 * returns the largest growth over the value before it started, in bytes.
 */
export async function rssGrowthDuring<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growth: peak - before };
  } finally {
    clearInterval(timer);
  }
}
