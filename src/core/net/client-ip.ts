import { inCidr, parseCidr, parseIp, type Cidr, type Ip } from "./ip";

/**
 * Which reverse proxies in front of Telltale are believed (`TELLTALE_TRUST_PROXY`): none, a
 * number of hops, or the address ranges the proxies live in.
 */
export type TrustProxy = { kind: "none" } | { kind: "hops"; hops: number } | { kind: "ranges"; ranges: Cidr[] };

/**
 * `false`/`0`/`no`: trust nobody. `true`/`yes`: one proxy (the usual single nginx or Caddy).
 * A whole number: that many proxies. Otherwise a comma-separated list of addresses or CIDR
 * ranges (IPv4 and IPv6). Null for anything else, so the setting fails at start.
 */
export function parseTrustProxy(value: string): TrustProxy | null {
  const text = value.trim().toLowerCase();
  if (["", "false", "no"].includes(text)) return { kind: "none" };
  if (["true", "yes"].includes(text)) return { kind: "hops", hops: 1 };
  if (/^\d{1,3}$/.test(text)) return Number(text) === 0 ? { kind: "none" } : { kind: "hops", hops: Number(text) };
  const ranges = text.split(",").map((part) => parseCidr(part));
  return ranges.length > 0 && ranges.every((r) => r !== null) ? { kind: "ranges", ranges } : null;
}

export interface ClientAddress {
  /** The client's address, or the nearest proxy's when the chain says nothing usable. */
  ip: string;
  /** Whether the direct peer is a trusted proxy, so its X-Forwarded-Proto/-Host count too. */
  viaTrustedProxy: boolean;
}

/**
 * The client address of a request. Each proxy appends the address it received the request
 * from to `X-Forwarded-For`, so only the right-most entries were written by proxies we
 * trust; anything to their left the client may have typed
 * (https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Headers/X-Forwarded-For#security_and_privacy_concerns).
 * The chain is the header's entries followed by the socket peer; walking it from the right,
 * trusted proxies are skipped (N hops, or addresses inside the trusted ranges) and the
 * first other address is the client. An entry that is no address stops the walk at the
 * proxy that wrote it; a chain shorter than the hops (or all trusted) gives its left-most.
 */
export function resolveClientIp(peer: string, forwardedFor: string | undefined, trust: TrustProxy): ClientAddress {
  const peerIp = parseIp(peer);
  const peerText = peerIp?.text ?? peer;
  if (trust.kind === "none") return { ip: peerText, viaTrustedProxy: false };
  const chain = [...(forwardedFor ?? "").split(",").filter((e) => e.trim() !== ""), peer];
  const trusted = (ip: Ip, fromRight: number) =>
    trust.kind === "hops" ? fromRight < trust.hops : trust.ranges.some((range) => inCidr(ip, range));

  if (!peerIp || !trusted(peerIp, 0)) return { ip: peerText, viaTrustedProxy: false };
  let nearest = peerIp;
  for (let fromRight = 1; fromRight < chain.length; fromRight++) {
    const ip = parseIp(chain[chain.length - 1 - fromRight] ?? "");
    if (!ip) break;
    nearest = ip;
    if (!trusted(ip, fromRight)) break;
  }
  return { ip: nearest.text, viaTrustedProxy: true };
}
