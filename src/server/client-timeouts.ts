import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { ClientTimeouts } from "../config/settings";
import { sendJson } from "./http";
import { log } from "./log";

/**
 * Slow-client protection for the front server (a "slowloris" holds connections by sending
 * very slowly). Node bounds the headers and the whole request
 * (https://nodejs.org/api/http.html#serverheaderstimeout, #serverrequesttimeout) and idle
 * sockets (#servertimeout); a body trickled at a few bytes a second inside a 100 MiB
 * allowance passes all three, so `watchBodyRate` adds a minimum rate, the way Apache's
 * mod_reqtimeout does (https://httpd.apache.org/docs/2.4/mod/mod_reqtimeout.html, MinRate).
 */
export function serverOptions(t: ClientTimeouts): { connectionsCheckingInterval: number } {
  // Node checks the headers and request time-outs on this interval (30 s by default), so a
  // time-out fires up to that much late; a quarter of the header time-out keeps it close.
  return { connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(t.headersMs / 4))) };
}

export function applyClientTimeouts(server: Server, t: ClientTimeouts): void {
  server.headersTimeout = t.headersMs;
  server.requestTimeout = t.requestMs;
  server.timeout = t.idleMs; // no 'timeout' listener: node destroys the idle socket
  // Longer than common load balancers' idle timeout (60 s), so they close an idle connection
  // first. Node's header time-out does not run on a connection waiting for its next request.
  server.keepAliveTimeout = 65_000;
  server.on("clientError", answerClientError);
}

/** Responses started on a socket and not finished: a client error then cannot be answered. */
const inProgress = new WeakMap<Duplex, ServerResponse>();

export function trackResponse(req: IncomingMessage, res: ServerResponse): void {
  inProgress.set(req.socket, res);
  res.once("close", () => {
    if (inProgress.get(req.socket) === res) inProgress.delete(req.socket);
  });
}

/**
 * What node's parser refused (bad framing, oversized headers, a time-out) is answered here:
 * a log line and a bare 4xx, never the client's bytes echoed back
 * (https://nodejs.org/api/http.html#event-clienterror).
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  const gone = error.code === "ECONNRESET" || !socket.writable;
  log("info", "client request refused", { status: gone ? undefined : status, code: error.code ?? "unknown" });
  const started = inProgress.get(socket);
  if (gone || (started && started.headersSent)) return void socket.destroy();
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * Cuts off a request whose body arrives slower than `minBodyBytesPerSecond`, measured over
 * windows of `bodyRateWindowMs` on the socket's byte count. A window in which the server
 * was not reading (the handler paused the body for backpressure, or has not started on it)
 * does not count against the client.
 */
export function watchBodyRate(req: IncomingMessage, res: ServerResponse, t: ClientTimeouts): void {
  const hasBody = Number(req.headers["content-length"] ?? "0") > 0 || req.headers["transfer-encoding"] !== undefined;
  if (!hasBody || req.complete) return;
  const socket = req.socket;
  const tick = Math.max(10, Math.floor(t.bodyRateWindowMs / 4));
  let since = Date.now();
  let baseline = socket.bytesRead;
  const restart = () => {
    since = Date.now();
    baseline = socket.bytesRead;
  };
  const timer = setInterval(() => {
    // Not reading, or holding unread bytes: the wait is the server's, not the client's.
    if (req.readableFlowing !== true || req.readableLength > 0) return restart();
    const elapsed = Date.now() - since;
    if (elapsed < t.bodyRateWindowMs) return;
    const received = socket.bytesRead - baseline;
    if (received * 1000 >= t.minBodyBytesPerSecond * elapsed) return restart();
    stop();
    log("warn", "request body too slow; connection closed", { url: (req.url ?? "").slice(0, 200), received, ms: elapsed });
    const detail = `the request body arrived slower than ${t.minBodyBytesPerSecond} bytes per second (TELLTALE_MIN_BODY_RATE)`;
    sendJson(res, 408, { detail }, { connection: "close" });
    // The client is not sending; once the answer is out (or a moment later) the connection goes.
    const drop = setTimeout(() => socket.destroy(), 1000);
    drop.unref();
    res.once("finish", () => {
      clearTimeout(drop);
      socket.destroy();
    });
  }, tick);
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    req.off("resume", restart);
  };
  req.on("resume", restart);
  req.once("end", stop);
  req.once("close", stop);
}
