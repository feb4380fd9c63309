// The load generator: N keep-alive connections on raw sockets (a light client leaves more of
// the shared CPU to the server than node:http's client would), each sending the next request
// of the corpus mix as soon as its previous answer is in — or, with `rate`, at fixed times
// (an open-loop sender at that many requests per second). Bounded by time and by count.
import { connect } from "node:net";
import { percentile } from "./util.mjs";
import { build } from "./template.mjs";
import { performance } from "node:perf_hooks";
import { clearInterval, setInterval, setTimeout } from "node:timers";
import { Buffer } from "node:buffer";

const HEADER_END = Buffer.from("\r\n\r\n");

/** Parses one HTTP/1.1 response at a time from a socket's bytes (content-length or chunked). */
class ResponseReader {
  constructor() {
    this.buf = Buffer.alloc(0);
    this.reset();
  }
  reset() {
    this.status = 0;
    this.length = -1;
    this.chunked = false;
    this.close = false;
    this.inBody = false;
  }
  /** Feeds bytes; returns the statuses of the responses completed by them. */
  push(chunk) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const done = [];
    for (;;) {
      if (!this.inBody) {
        const end = this.buf.indexOf(HEADER_END);
        if (end < 0) break;
        const head = this.buf.subarray(0, end).toString("latin1");
        this.status = Number(head.slice(9, 12));
        const cl = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        this.length = cl ? Number(cl[1]) : -1;
        this.chunked = /\r\ntransfer-encoding:\s*chunked/i.test(head);
        this.close = /\r\nconnection:\s*close/i.test(head);
        this.buf = this.buf.subarray(end + 4);
        this.inBody = true;
      }
      if (this.length >= 0) {
        if (this.buf.length < this.length) break;
        this.buf = this.buf.subarray(this.length);
      } else if (this.chunked) {
        // Small JSON answers: wait for the terminating zero-size chunk, then skip the lot.
        const end = this.buf.indexOf("0\r\n\r\n");
        if (end < 0 || (end > 0 && this.buf[end - 1] !== 0x0a)) break;
        this.buf = this.buf.subarray(end + 5);
      } else if (this.status === 204 || this.status === 304) {
        // no body
      } else break; // read until close: handled by the connection's 'end'
      done.push({ status: this.status, close: this.close });
      this.reset();
    }
    return done;
  }
}

/**
 * Runs one load phase and returns what the server answered.
 * options: { host, port, templates, order, ids, connections, durationMs, maxRequests, rate,
 *            startN, variantOf(n), drainMs, onProgress(stats), untilAccepted }
 * untilAccepted: maxRequests counts accepted requests, not sent ones, and a connection that
 * gets a 503 (the digest queue is full) pauses before its next request, as an SDK honouring
 * Retry-After would — the bulk loader of the read path uses it to load an exact count.
 */
export function runLoad(options) {
  const {
    host = "127.0.0.1",
    port,
    templates,
    order,
    ids,
    connections = 64,
    durationMs,
    rate = null,
    startN = 0,
    variantOf = null,
    drainMs = 15_000,
    onProgress,
    untilAccepted = false,
  } = options;
  const BACK_OFF_MS = 250;
  // Bounded by count as well as by time: at most 100,000 requests per second of the phase.
  const maxRequests = Math.min(options.maxRequests ?? Infinity, Math.ceil((durationMs / 1000) * 100_000));
  return new Promise((resolve) => {
    const latencies = [];
    const statuses = {};
    const netErrors = {};
    let sent = 0;
    let completed = 0;
    let okRequests = 0;
    let okEvents = 0;
    let okBytes = 0;
    let wireBytes = 0;
    let maxLagMs = 0;
    let slots = 0; // open loop: send times handed out so far
    let lastAnswer = performance.now();
    let stopping = false;
    let finished = false;
    const t0 = performance.now();
    const deadline = t0 + durationMs;
    const live = new Set();

    const counted = (t) => t.counts.errors + t.counts.transactions;
    const progress = onProgress
      ? setInterval(() => onProgress({ sent, completed, okRequests, seconds: (performance.now() - t0) / 1000 }), 1000)
      : null;

    const finish = () => {
      if (finished) return;
      finished = true;
      clearInterval(progress);
      for (const c of live) c.socket.destroy();
      const seconds = (lastAnswer - t0) / 1000;
      const sorted = Float64Array.from(latencies).sort();
      resolve({
        seconds,
        sent,
        completed,
        okRequests,
        okEvents,
        okBytes,
        wireBytes,
        requestsPerSecond: okRequests / seconds,
        eventsPerSecond: okEvents / seconds,
        statuses,
        netErrors,
        p50: percentile(sorted, 50),
        p90: percentile(sorted, 90),
        p99: percentile(sorted, 99),
        max: sorted.length ? sorted[sorted.length - 1] : NaN,
        maxLagMs,
        connections,
        rate,
      });
    };

    const maybeDone = () => {
      if (!stopping) return;
      for (const c of live) if (c.busy) return;
      finish();
    };

    const stop = () => {
      if (stopping) return;
      stopping = true;
      // Answers still on the way are waited for, up to drainMs.
      setTimeout(finish, drainMs).unref();
      maybeDone();
    };
    setTimeout(stop, durationMs);

    function open() {
      const conn = { socket: null, reader: new ResponseReader(), busy: false, started: 0, template: null, closed: false };
      const socket = connect({ host, port });
      conn.socket = socket;
      socket.setNoDelay(true);
      live.add(conn);
      socket.on("connect", () => next(conn));
      socket.on("data", (chunk) => {
        for (const r of conn.reader.push(chunk)) {
          const now = performance.now();
          lastAnswer = now;
          completed++;
          conn.busy = false;
          latencies.push(now - conn.started);
          statuses[r.status] = (statuses[r.status] ?? 0) + 1;
          if (r.status >= 200 && r.status < 300) {
            okRequests++;
            okEvents += counted(conn.template);
            okBytes += conn.template.bytes;
          }
          if (r.close) {
            conn.closed = true;
            socket.end();
          } else if (untilAccepted && r.status === 503) {
            conn.busy = true; // pausing
            setTimeout(() => {
              conn.busy = false;
              next(conn);
            }, BACK_OFF_MS);
          } else next(conn);
        }
      });
      const gone = (error) => {
        if (conn.closed === "gone") return;
        const wasBusy = conn.busy;
        conn.closed = "gone";
        live.delete(conn);
        if (error) netErrors[error.code ?? "error"] = (netErrors[error.code ?? "error"] ?? 0) + 1;
        if (wasBusy) {
          completed++;
          conn.busy = false;
        }
        if (stopping) return maybeDone();
        // The server closed (or reset) the connection: open another, after a pause if it failed.
        setTimeout(open, error ? 20 : 0);
      };
      socket.on("error", (e) => gone(e));
      socket.on("close", () => gone(null));
    }

    const limitReached = () => (untilAccepted ? okRequests : sent) >= maxRequests;
    function send(conn) {
      if (stopping || conn.closed || limitReached()) {
        if (limitReached()) stop();
        return maybeDone();
      }
      const n = startN + sent;
      const template = templates[order[n % order.length]];
      const request = build(template, n, ids, variantOf ? variantOf(n) : 0);
      sent++;
      wireBytes += request.length;
      conn.template = template;
      conn.busy = true;
      conn.started = performance.now();
      conn.socket.write(request);
    }

    function next(conn) {
      if (stopping || limitReached() || performance.now() >= deadline) {
        if (limitReached()) stop();
        return maybeDone();
      }
      if (rate === null) return send(conn);
      // Open loop: the i-th send is due at t0 + i / rate, whichever connection is free for it.
      const due = t0 + (slots++ / rate) * 1000;
      const wait = due - performance.now();
      if (wait <= 0) {
        maxLagMs = Math.max(maxLagMs, -wait);
        return send(conn);
      }
      conn.busy = true; // waiting for its slot
      setTimeout(() => {
        conn.busy = false;
        maxLagMs = Math.max(maxLagMs, performance.now() - due);
        send(conn);
      }, wait);
    }

    for (let i = 0; i < connections; i++) open();
  });
}
