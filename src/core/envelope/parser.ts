/**
 * Streaming envelope parser (spec: develop.sentry.dev "Envelopes", docs/protocol.md#envelope-format).
 *
 *   const parser = new EnvelopeParser(visitor, limits);
 *   for await (const chunk of decompressed) parser.push(chunk);   // throws EnvelopeError
 *   parser.end();                                                 // throws EnvelopeError
 *
 * The parser calls the visitor synchronously, in byte order:
 * - `onEnvelopeHeader(header)` once, for the first line;
 * - `onItem({ header, payload })` for each buffered item (events, sessions, spans, logs, ...:
 *   small JSON, held up to its per-type limit, then handed out whole);
 * - `onItemStart(header)`, `onItemChunk(chunk)`..., `onItemEnd({ header, payloadBytes })` for
 *   each streamed item (attachments, replays, profiles, unknown types; see `isStreamedItemType`),
 *   so a 50 MiB attachment never sits in memory. Chunks are never empty; an empty payload
 *   gives start and end only. After `onItemStart` the envelope may still fail: clean up on error.
 * Payloads and chunks are views into the pushed buffers (no copy when an item lies inside one
 * chunk): do not reuse a buffer after pushing it. For an async consumer with backpressure use
 * `readEnvelope` (an async generator over an async iterable of buffers); for a whole buffer,
 * `parseEnvelope`.
 *
 * Every limit is checked before the bytes that cross it are held: a declared `length` is
 * checked at the item header, an implicit length as the bytes arrive, the envelope size on
 * each push. The first error wins and sticks: later calls rethrow it. Errors do not depend on
 * how the input was split into chunks.
 */
import { EnvelopeError, type EnvelopeErrorDetails, type EnvelopeErrorReason } from "./errors";
import { parseHeaderLine, readEnvelopeHeader, readItemHeader, type EnvelopeHeader, type ItemHeader } from "./headers";
import { INTERNAL_ITEM_TYPES, isStreamedItemType } from "./item-types";
import { LimitTracker } from "./limit-tracker";
import { DEFAULT_ENVELOPE_LIMITS, type EnvelopeLimits, type ItemBudget } from "./limits";

export interface EnvelopeItem {
  readonly header: ItemHeader;
  readonly payload: Buffer;
}

export interface ItemEnd {
  readonly header: ItemHeader;
  readonly payloadBytes: number;
}

export interface EnvelopeVisitor {
  onEnvelopeHeader?(header: EnvelopeHeader): void;
  onItem?(item: EnvelopeItem): void;
  onItemStart?(header: ItemHeader): void;
  onItemChunk?(chunk: Buffer): void;
  onItemEnd?(end: ItemEnd): void;
}

type State = "envelope_header" | "item_header" | "payload_sized" | "payload_line" | "after_payload" | "done";

const NEWLINE = 0x0a;
const EMPTY = Buffer.alloc(0);

export class EnvelopeParser {
  private state: State = "envelope_header";
  /** Bytes consumed so far: the absolute offset of the next byte. */
  private offset = 0;
  private failure: unknown = undefined;
  /** The pending header line, or the payload of a buffered item, in pieces. */
  private parts: Buffer[] = [];
  private partsBytes = 0;
  private peak = 0;

  private envelopeHeader: EnvelopeHeader | undefined;
  private readonly tracker: LimitTracker;

  // The item being read.
  private item: ItemHeader | undefined;
  private budget: ItemBudget | undefined;
  private streamed = false;
  private payloadStart = 0;
  private payloadBytes = 0;
  private remaining = 0;

  constructor(
    private readonly visitor: EnvelopeVisitor,
    private readonly limits: EnvelopeLimits = DEFAULT_ENVELOPE_LIMITS,
  ) {
    this.tracker = new LimitTracker(limits);
  }

  /** The envelope header, once its line has been read. */
  get header(): EnvelopeHeader | undefined {
    return this.envelopeHeader;
  }

  get bytesRead(): number {
    return this.offset;
  }

  get itemsRead(): number {
    return this.tracker.itemsCount;
  }

  /** Bytes the parser holds right now (a partial header line or a buffered payload). */
  get bufferedBytes(): number {
    return this.partsBytes;
  }

  /** The most bytes it ever held at once: bounded by the largest per-type limit of a buffered item. */
  get peakBufferedBytes(): number {
    return this.peak;
  }

  push(input: Uint8Array): void {
    this.assertOpen();
    let chunk = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    const room = this.limits.maxEnvelopeBytes - this.offset;
    const overflow = chunk.length > room;
    if (overflow) chunk = chunk.subarray(0, room);
    try {
      this.consume(chunk);
      if (overflow) {
        throw this.fail("too_large", `the envelope is larger than maxEnvelopeBytes (${this.limits.maxEnvelopeBytes} bytes)`, {
          limit: "maxEnvelopeBytes",
        });
      }
    } catch (e) {
      this.failure = e;
      throw e;
    }
  }

  end(): void {
    this.assertOpen();
    try {
      this.finish();
      this.state = "done";
    } catch (e) {
      this.failure = e;
      throw e;
    }
  }

  private assertOpen(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.state === "done") throw new Error("EnvelopeParser: push() or end() after end()");
  }

  private consume(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) {
      switch (this.state) {
        case "envelope_header":
        case "item_header":
          pos = this.readHeaderLine(chunk, pos);
          break;
        case "payload_sized":
          pos = this.readSized(chunk, pos);
          break;
        case "payload_line":
          pos = this.readLine(chunk, pos);
          break;
        case "after_payload":
          if (chunk[pos] !== NEWLINE) throw this.missingNewline(chunk[pos] ?? 0);
          pos += 1;
          this.offset += 1;
          this.finishItem();
          break;
        case "done":
          throw new Error("EnvelopeParser: unreachable state");
      }
    }
  }

  private finish(): void {
    switch (this.state) {
      case "envelope_header":
        if (this.offset === 0) {
          throw this.fail("invalid_envelope_header", "the body is empty: an envelope starts with a header line, at least {}", {});
        }
        this.onHeaderLine(this.takeParts(), 0);
        return;
      case "item_header": {
        if (this.partsBytes === 0) return; // clean end after a newline
        const lineStart = this.offset - this.partsBytes;
        this.onHeaderLine(this.takeParts(), lineStart);
        // An item header at EOF: the payload is empty, which only fits an implicit or zero length.
        if (this.remaining > 0) throw this.unexpectedEof();
        this.finishItem();
        return;
      }
      case "payload_sized":
        throw this.unexpectedEof();
      case "payload_line":
      case "after_payload":
        this.finishItem();
        return;
      case "done":
        return;
    }
  }

  /** Reads up to the next `\n`; a line split across chunks is held in `parts`, each byte scanned once. */
  private readHeaderLine(chunk: Buffer, pos: number): number {
    const nl = chunk.indexOf(NEWLINE, pos);
    const end = nl === -1 ? chunk.length : nl;
    const lineStart = this.offset - this.partsBytes;
    if (this.partsBytes + (end - pos) > this.limits.maxHeaderBytes) {
      const what = this.state === "envelope_header" ? "the envelope header" : `the header of item ${this.tracker.itemsCount + 1}`;
      throw this.fail("too_large", `${what} is longer than maxHeaderBytes (${this.limits.maxHeaderBytes} bytes)`, {
        limit: "maxHeaderBytes",
        offset: lineStart,
      });
    }
    if (nl === -1) {
      this.hold(chunk.subarray(pos));
      this.offset += chunk.length - pos;
      return chunk.length;
    }
    const line = this.takeParts(chunk.subarray(pos, nl));
    this.offset += nl - pos + 1;
    this.onHeaderLine(line, lineStart);
    return nl + 1;
  }

  private onHeaderLine(line: Buffer, lineStart: number): void {
    if (this.state === "envelope_header") {
      const parsed = parseHeaderLine(line);
      if (!parsed.ok) {
        throw this.fail("invalid_envelope_header", `the envelope header (first line) ${parsed.problem}`, { offset: lineStart });
      }
      const header = readEnvelopeHeader(parsed.value);
      if (!header.ok) throw this.fail("invalid_envelope_header", `invalid envelope header: ${header.problem}`, { offset: lineStart });
      this.envelopeHeader = header.value;
      this.state = "item_header";
      this.visitor.onEnvelopeHeader?.(header.value);
      return;
    }
    const n = this.tracker.itemsCount + 1;
    const parsed = parseHeaderLine(line);
    if (!parsed.ok) {
      const hint = line.length === 0 ? " (blank lines are not allowed between items or after the final newline)" : "";
      throw this.fail("invalid_item_header", `the header of item ${n} ${parsed.problem}${hint}`, { offset: lineStart });
    }
    const header = readItemHeader(parsed.value);
    if (!header.ok) throw this.fail("invalid_item_header", `invalid header of item ${n}: ${header.problem}`, { offset: lineStart });
    this.startItem(header.value, lineStart);
  }

  private startItem(header: ItemHeader, lineStart: number): void {
    if (INTERNAL_ITEM_TYPES.has(header.type)) {
      const n = this.tracker.itemsCount + 1;
      throw this.fail("internal_item_type", `item ${n} has type '${header.type}', which is internal to Relay and may not be sent`, {
        itemType: header.type,
        offset: lineStart,
      });
    }
    this.budget = this.tracker.admit(header, lineStart);
    this.item = header;
    this.streamed = isStreamedItemType(header.type);
    this.payloadStart = this.offset;
    this.payloadBytes = 0;
    this.remaining = header.length ?? 0;
    if (header.length === undefined) {
      this.state = "payload_line";
    } else {
      // A declared length is checked up front: nothing past a limit is ever read.
      this.checkGrowth(header.length);
      this.tracker.checkDeclaredLength(header, header.length, this.payloadStart);
      this.state = header.length === 0 ? "after_payload" : "payload_sized";
    }
    if (this.streamed) this.visitor.onItemStart?.(header);
  }

  /** Throws before `more` payload bytes of the current item would cross its own or its group's cap. */
  private checkGrowth(more: number): void {
    if (this.item === undefined || this.budget === undefined) return;
    this.tracker.checkPayload(this.item, this.budget, this.payloadBytes + more, this.payloadStart);
  }

  private readSized(chunk: Buffer, pos: number): number {
    const take = Math.min(this.remaining, chunk.length - pos);
    this.append(chunk.subarray(pos, pos + take));
    this.remaining -= take;
    this.offset += take;
    if (this.remaining === 0) this.state = "after_payload";
    return pos + take;
  }

  /** An implicit-length payload runs to the next `\n` (a `\r` before it stays in the payload) or EOF. */
  private readLine(chunk: Buffer, pos: number): number {
    const nl = chunk.indexOf(NEWLINE, pos);
    const end = nl === -1 ? chunk.length : nl;
    if (end > pos) {
      this.checkGrowth(end - pos);
      this.append(chunk.subarray(pos, end));
      this.offset += end - pos;
    }
    if (nl === -1) return end;
    this.offset += 1;
    this.finishItem();
    return nl + 1;
  }

  private append(segment: Buffer): void {
    this.payloadBytes += segment.length;
    if (this.streamed) this.visitor.onItemChunk?.(segment);
    else this.hold(segment);
  }

  private finishItem(): void {
    const header = this.item;
    const budget = this.budget;
    if (header === undefined || budget === undefined) throw new Error("EnvelopeParser: no item to finish");
    this.tracker.close(budget, this.payloadBytes);
    this.item = undefined;
    this.budget = undefined;
    this.state = "item_header";
    if (this.streamed) {
      this.visitor.onItemEnd?.({ header, payloadBytes: this.payloadBytes });
    } else {
      // Taken before the call: `onItem?.(...)` would skip evaluating it when there is no onItem.
      const payload = this.takeParts();
      this.visitor.onItem?.({ header, payload });
    }
  }

  private hold(piece: Buffer): void {
    this.parts.push(piece);
    this.partsBytes += piece.length;
    if (this.partsBytes > this.peak) this.peak = this.partsBytes;
  }

  /** The held pieces (plus `last`) as one buffer; copies only when there is more than one piece. */
  private takeParts(last?: Buffer): Buffer {
    const parts = this.parts;
    let result: Buffer;
    if (parts.length === 0) result = last ?? EMPTY;
    else if (parts.length === 1 && (last === undefined || last.length === 0)) result = parts[0] ?? EMPTY;
    else {
      if (last !== undefined) parts.push(last);
      result = Buffer.concat(parts, this.partsBytes + (last?.length ?? 0));
    }
    if (parts.length > 0) this.parts = [];
    this.partsBytes = 0;
    return result;
  }

  private missingNewline(found: number): EnvelopeError {
    const item = this.item;
    const shown = found === 0x0d ? "'\\r'" : `byte 0x${found.toString(16).padStart(2, "0")}`;
    return this.fail(
      "missing_newline",
      `missing newline after the payload of item ${this.tracker.itemsCount} (type '${item?.type ?? "?"}'): ` +
        `found ${shown} after the ${item?.length ?? 0} bytes its length declares; length must count bytes, not characters`,
      { itemType: item?.type },
    );
  }

  private unexpectedEof(): EnvelopeError {
    const item = this.item;
    return this.fail(
      "unexpected_eof",
      `unexpected end of envelope: item ${this.tracker.itemsCount} (type '${item?.type ?? "?"}') ` +
        `declares length ${item?.length ?? 0} but only ${this.payloadBytes} payload bytes follow`,
      { itemType: item?.type },
    );
  }

  private fail(reason: EnvelopeErrorReason, message: string, details: Partial<EnvelopeErrorDetails>): EnvelopeError {
    return new EnvelopeError(reason, message, { offset: this.offset, ...details });
  }
}
