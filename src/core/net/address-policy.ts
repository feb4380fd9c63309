import { inCidr, parseCidr, parseIp, type Cidr, type Ip } from "./ip";

/**
 * Which addresses an alert webhook may be sent to (decision 0018): a URL anyone with alert:write
 * can type must not reach the server's own loopback, the network it sits in, or a cloud metadata
 * service (169.254.169.254). Refused unless TELLTALE_ALERTS_ALLOW_PRIVATE_URLS is set: the
 * special-purpose ranges of RFC 6890 (https://www.iana.org/assignments/iana-ipv4-special-registry/,
 * https://www.iana.org/assignments/iana-ipv6-special-registry/) that are not globally reachable.
 */
const REFUSED: readonly [string, string][] = [
  ["0.0.0.0/8", "an unspecified ('this network') address"],
  ["10.0.0.0/8", "a private address"],
  ["100.64.0.0/10", "a carrier-grade NAT address"],
  ["127.0.0.0/8", "a loopback address"],
  ["169.254.0.0/16", "a link-local address"],
  ["172.16.0.0/12", "a private address"],
  ["192.0.0.0/24", "an IETF protocol address"],
  ["192.168.0.0/16", "a private address"],
  ["198.18.0.0/15", "a benchmarking address"],
  ["224.0.0.0/4", "a multicast address"],
  ["240.0.0.0/4", "a reserved address"],
  ["::/96", "an unspecified, loopback or IPv4-compatible address"],
  ["fc00::/7", "a unique-local address"],
  ["fe80::/10", "a link-local address"],
  ["ff00::/8", "a multicast address"],
];
const RANGES: readonly [Cidr, string][] = REFUSED.map(([range, why]) => [parseCidr(range)!, why]);
/** NAT64 (RFC 6052): the IPv4 address in the last 32 bits is the one reached. */
const NAT64 = parseCidr("64:ff9b::/96")!;

function classify(ip: Ip): string | null {
  if (ip.version === 6 && inCidr(ip, NAT64)) return classify({ version: 4, bytes: ip.bytes.slice(12), text: ip.bytes.slice(12).join(".") });
  for (const [range, why] of RANGES) if (inCidr(ip, range)) return why;
  return null;
}

/** Why a webhook may not go to this address (`127.0.0.1 is a loopback address`), or null when it may. */
export function addressRefusal(address: string): string | null {
  const ip = parseIp(address);
  if (!ip) return `${address} is not an IP address`;
  const why = classify(ip);
  return why === null ? null : `${ip.text} is ${why}`;
}
