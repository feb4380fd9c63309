/**
 * Stored payloads (an event's or a transaction's JSON), compressed with a preset dictionary
 * (docs/decisions/0013-compressed-payloads.md, 0031-zstd-payloads.md). A stored payload starts
 * with one format byte, so payloads written before compression (JSON text, whose first byte is
 * `{`) stay readable and formats sit beside each other:
 * - `0x01`: raw deflate with DICTIONARY_V1 (written until 0031; still read);
 * - `0x02`: a zstd frame with DICTIONARY_V1 as its raw-content dictionary, with a checksum.
 *
 * The dictionary is part of the stored formats: never edit DICTIONARY_V1 — add a V2 with its
 * own format byte instead.
 */
import { inflateRawSync } from "node:zlib";
import { Decompressor } from "zstd-napi";
// The native binding is CommonJS whose exports Node's ESM loader cannot name: taken whole.
import zstd from "zstd-napi/binding.js";

/** Format byte of payloads deflated with DICTIONARY_V1 (no longer written). */
const DEFLATE_V1 = 0x01;
/** Format byte of zstd frames compressed with DICTIONARY_V1. */
const ZSTD_V1 = 0x02;

/**
 * Text that normalized events share: field names and the values SDKs repeat, least common
 * first (deflate reaches the dictionary's end most cheaply, so the commonest text goes there).
 */
export const DICTIONARY_V1 = Buffer.from(
  [
    '"culture":{"locale":"en-US","timezone":"UTC"},"cloud_resource":{},',
    '"device":{"boot_time":"","arch":"x64","memory_size":,"free_memory":,"processor_count":,"cpu_description":"","processor_frequency":},',
    '"os":{"kernel_version":"","name":"Linux","version":""},"app":{"app_start_time":"","app_memory":,"free_memory":},',
    '"runtime":{"name":"CPython","version":"3.11.2","build":""},"runtime":{"name":"node","version":"v20.',
    '"browser":{"name":"Chrome","version":""},"os":{"name":"Windows","version":"10"},"device":{"family":"Desktop"},',
    '"request":{"url":"https://","method":"GET","query_string":"","headers":{"Accept":"*/*","User-Agent":"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/ Safari/537.36","Host":"","Referer":"https://"},"cookies":{},"env":{"REMOTE_ADDR":""}},',
    '"user":{"id":"","email":"","username":"","ip_address":"","geo":{"country_code":"","city":"","region":""}},',
    '"sdk":{"name":"sentry.python","version":"","integrations":["argv","atexit","dedupe","excepthook","logging","modules","stdlib","threading"],"packages":[{"name":"pypi:sentry-sdk","version":""}]},',
    '"sdk":{"name":"sentry.javascript.browser","version":"","integrations":["InboundFilters","FunctionToString","BrowserApiErrors","Breadcrumbs","GlobalHandlers","LinkedErrors","Dedupe","HttpContext","BrowserSession"],"packages":[{"name":"npm:@sentry/browser","version":""}]},',
    '"sdk":{"name":"sentry.javascript.node","version":"","integrations":["EventFilters","FunctionToString","LinkedErrors","RequestData","Console","Http","NodeFetch","OnUncaughtException","OnUnhandledRejection","ContextLines","LocalVariablesAsync","Context","Modules"],"packages":[{"name":"npm:@sentry/node","version":""}]},',
    '"modules":{"react":"","react-dom":"","next":"","@sentry/node":"","@sentry/nextjs":"","typescript":"","@types/node":""},',
    '"breadcrumbs":{"values":[{"timestamp":,"category":"console","level":"info","message":""},{"timestamp":,"type":"http","category":"fetch","data":{"method":"GET","url":"","status_code":200}},{"timestamp":,"category":"ui.click","message":"body > div > button"},{"timestamp":,"category":"navigation","data":{"from":"/","to":"/"}}]},',
    '"tags":{},"extra":{},"fingerprint":["{{ default }}"],"logger":"","transaction":"","server_name":"","dist":"",',
    '"spans":[{"span_id":"","parent_span_id":"","trace_id":"","op":"http.client","description":"GET ","status":"ok","start_timestamp":,"timestamp":,"origin":"auto.http.otel.http","data":{"sentry.op":"","sentry.origin":""}}],',
    '"contexts":{"trace":{"trace_id":"","span_id":"","parent_span_id":"","op":"http.server","status":"ok","origin":"auto.http.otel.http"},',
    '"vars":{"self":"<object>","args":[],"kwargs":{}},',
    '"filename":"node:internal/process/task_queues","abs_path":"node:internal/process/task_queues","function":"process.processTicksAndRejections","module":"task_queues",',
    '"filename":"node:internal/modules/cjs/loader","abs_path":"node:internal/modules/cjs/loader","function":"Module._compile","module":"loader",',
    '"filename":"/usr/lib/python3/dist-packages/","abs_path":"/usr/lib/python3/dist-packages/",',
    '"filename":"app:///_next/static/chunks/","abs_path":"https:///_next/static/chunks/","function":"","in_app":true},',
    '"mechanism":{"type":"onunhandledrejection","handled":false},"mechanism":{"type":"onerror","handled":false},',
    '"exception":{"values":[{"type":"TypeError","value":"Cannot read properties of undefined (reading \'',
    '"type":"Error","value":"","mechanism":{"type":"generic","handled":true},"stacktrace":{"frames":[',
    '"in_app":false},{"filename":"","abs_path":"","function":"","module":"","lineno":,"colno":,"in_app":true,',
    '"context_line":"","pre_context":["","","","",""],"post_context":["","","","",""]},',
    '{"event_id":"","type":"event","timestamp":,"received":,"platform":"javascript","level":"error","release":"","environment":"production",',
  ].join(""),
);

/**
 * zstd's level 1: on the bench corpus's events and transactions (11.9 KB of JSON on average),
 * compressed between other work as the digest does, it stores 2.18 KB in ~34 µs; level 3 stores
 * 2.15 KB in ~38 µs; deflate at level 2 with the same dictionary stored 2.22 KB in ~69 µs
 * (decision 0031). The digest's CPU is the scarcer resource.
 */
const LEVEL = 1;

/**
 * One compression context and one decompressor per thread, each with the dictionary loaded
 * once: deflate built a stream and set its dictionary for every payload.
 */
let cctx: zstd.CCtx | undefined;
let decompressor: Decompressor | undefined;

function zstdContext(): zstd.CCtx {
  if (!cctx) {
    cctx = new zstd.CCtx();
    cctx.setParameter(zstd.CParameter.compressionLevel, LEVEL);
    cctx.setParameter(zstd.CParameter.checksumFlag, 1);
    cctx.loadDictionary(DICTIONARY_V1);
  }
  return cctx;
}

function zstdDecompressor(): Decompressor {
  if (!decompressor) {
    decompressor = new Decompressor();
    decompressor.loadDictionary(DICTIONARY_V1);
  }
  return decompressor;
}

/**
 * The payload's UTF-8 text and its frame are made in buffers kept for the next payload, so
 * that each one costs a single allocation, the stored bytes: zstd-napi's `Compressor` made a
 * buffer of the text, a frame buffer and a copy of it, which the digest then copied again behind
 * the format byte — ~16 KB of short-lived memory outside V8's heap per event, which V8 only
 * frees when it collects. The digest took ~5 % less CPU per envelope of the bench's mix in six
 * alternating `bench:digest` pairs after a short warm-up; warm, this and the statement journal
 * in memory (src/db/connect.ts) saved ~3 % together (docs/benchmarks.md). Buffers a
 * payload larger than this needs are not kept.
 */
const KEPT_SCRATCH_BYTES = 256 * 1024;
let text: Buffer = Buffer.allocUnsafeSlow(0);
let frame: Buffer = Buffer.allocUnsafeSlow(0);

function scratch(kept: Buffer, bytes: number): Buffer {
  if (kept.length >= bytes) return kept;
  return Buffer.allocUnsafeSlow(bytes);
}

/** Compresses a payload for storage (the format byte, then a zstd frame with the dictionary). */
export function encodePayload(json: string): Buffer {
  // UTF-8 takes at most 3 bytes per UTF-16 code unit.
  const source = scratch(text, json.length * 3);
  if (source.length <= KEPT_SCRATCH_BYTES) text = source;
  const length = source.write(json, 0, "utf8");
  const bound = zstd.compressBound(length) + 1;
  const out = scratch(frame, bound);
  if (out.length <= KEPT_SCRATCH_BYTES) frame = out;
  out[0] = ZSTD_V1;
  const written = zstdContext().compress2(out.subarray(1, bound), source.subarray(0, length));
  return Buffer.from(out.subarray(0, written + 1));
}

/**
 * A stored payload's JSON text, whichever way it was stored: compressed (format byte), or as
 * text from before compression (a string on SQLite, UTF-8 bytes after PostgreSQL's column
 * became bytea).
 */
export function decodePayload(stored: string | Uint8Array): string {
  if (typeof stored === "string") return stored;
  const bytes = Buffer.isBuffer(stored) ? stored : Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  if (bytes.length > 0 && bytes[0] === ZSTD_V1) return zstdDecompressor().decompress(bytes.subarray(1)).toString("utf8");
  if (bytes.length > 0 && bytes[0] === DEFLATE_V1) return inflateRawSync(bytes.subarray(1), { dictionary: DICTIONARY_V1 }).toString("utf8");
  return bytes.toString("utf8");
}
