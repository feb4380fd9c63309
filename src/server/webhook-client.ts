import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { addressRefusal } from "../core/net/address-policy";
import { RESPONSE_EXCERPT, type WebhookPoster, type WebhookRequest, type WebhookResult } from "../core/ports/webhooks";

/** One webhook exchange, redirects included, may take this long. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const MAX_REDIRECTS = 3;
/** Bytes of an answer read for its excerpt; the rest is not read. */
const MAX_ANSWER_BYTES = 16 * 1024;

export interface WebhookClientOptions {
  /** TELLTALE_ALERTS_ALLOW_PRIVATE_URLS: send to loopback and private addresses too. */
  allowPrivate: boolean;
  timeoutMs?: number;
  /** Every address of a host name (dns.lookup with `all`); tests give names their own addresses. */
  lookup?: (host: string) => Promise<{ address: string; family: number }[]>;
  /** Why an address is refused, or null (src/core/net/address-policy.ts unless a test narrows it). */
  refusal?: (address: string) => string | null;
}

class Refused extends Error {}

interface Answer {
  status: number;
  location: string | null;
  excerpt: string;
}

/** Reads the start of the answer for the attempt's record and lets the rest go. */
function readAnswer(res: IncomingMessage): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const done = () => {
      const location = res.headers.location ?? null;
      resolve({ status: res.statusCode ?? 0, location, excerpt: Buffer.concat(chunks).toString("utf8").slice(0, RESPONSE_EXCERPT) });
    };
    res.on("data", (chunk: Buffer) => {
      if (bytes < MAX_ANSWER_BYTES) chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - bytes));
      bytes += chunk.length;
      if (bytes >= MAX_ANSWER_BYTES) {
        res.destroy();
        done();
      }
    });
    res.on("end", done);
    res.on("error", reject);
  });
}

/**
 * Alert webhooks over HTTP(S) (decision 0018). Before each hop (the URL and every redirect) the
 * host's addresses are resolved and checked, and the connection goes to the address that was
 * checked (the request's `lookup` answers with it), so a name that resolves differently a moment
 * later (DNS rebinding) cannot lead elsewhere. Redirects: 307 and 308 repeat the POST, 301, 302
 * and 303 continue with a GET, at most MAX_REDIRECTS; one deadline covers them all.
 */
export function createWebhookClient(options: WebhookClientOptions): WebhookPoster {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const lookup = options.lookup ?? ((host: string) => dnsLookup(host, { all: true, verbatim: true }));
  const refusal = options.refusal ?? addressRefusal;

  async function checkedAddress(url: URL): Promise<{ address: string; family: number }> {
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Refused(`${url.protocol} URLs are not sent to`);
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host);
    if (addresses.length === 0) throw new Error(`${host} has no address`);
    if (!options.allowPrivate)
      for (const a of addresses) {
        const why = refusal(a.address);
        if (why) throw new Refused(`refused: ${host} resolves to ${why} (TELLTALE_ALERTS_ALLOW_PRIVATE_URLS allows it)`);
      }
    return addresses[0]!;
  }

  function hop(url: URL, pinned: { address: string; family: number }, method: string, req: WebhookRequest, signal: AbortSignal) {
    const pin: LookupFunction = (_host, opts, callback) => {
      if (opts.all) callback(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    };
    const headers = method === "POST" ? { ...req.headers, "content-length": String(Buffer.byteLength(req.body)) } : req.headers;
    return new Promise<Answer>((resolve, reject) => {
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      const r = send(url, { method, headers, lookup: pin, signal, agent: false }, (res) => readAnswer(res).then(resolve, reject));
      r.on("error", reject);
      r.end(method === "POST" ? req.body : undefined);
    });
  }

  return {
    async post(req: WebhookRequest): Promise<WebhookResult> {
      const started = performance.now();
      const signal = AbortSignal.timeout(timeoutMs);
      const result = (r: Omit<WebhookResult, "durationMs">): WebhookResult => ({
        ...r,
        durationMs: Math.round(performance.now() - started),
      });
      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        return result({ status: null, response: null, error: "not a URL", refused: true });
      }
      let method = "POST";
      try {
        for (let redirects = 0; ; redirects++) {
          const answer = await hop(url, await checkedAddress(url), method, req, signal);
          const redirect = [301, 302, 303, 307, 308].includes(answer.status) && answer.location !== null;
          if (!redirect || redirects >= MAX_REDIRECTS) {
            const error = redirect ? `more than ${MAX_REDIRECTS} redirects` : null;
            return result({ status: answer.status, response: answer.excerpt, error, refused: false });
          }
          if (answer.status !== 307 && answer.status !== 308) method = "GET";
          url = new URL(answer.location!, url);
        }
      } catch (error) {
        if (error instanceof Refused) return result({ status: null, response: null, error: error.message, refused: true });
        const message = signal.aborted ? `no answer within ${timeoutMs / 1000} s` : error instanceof Error ? error.message : String(error);
        return result({ status: null, response: null, error: message, refused: false });
      }
    },
  };
}
