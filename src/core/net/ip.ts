import { isIPv4, isIPv6 } from "node:net";

/**
 * IP addresses as they arrive in `X-Forwarded-For` and socket peers, and CIDR ranges over
 * them. Pure helpers: the client-IP resolver and login throttling use them.
 */
export interface Ip {
  version: 4 | 6;
  /** 4 or 16 bytes. */
  bytes: Uint8Array;
  /** The canonical text: dotted IPv4, or IPv6 as Node prints it. */
  text: string;
}

export interface Cidr {
  version: 4 | 6;
  bytes: Uint8Array;
  prefix: number;
}

/**
 * Reads one address: IPv4, IPv6 (zone id dropped), `[v6]:port`, `v4:port`. An IPv4-mapped
 * IPv6 address (`::ffff:192.0.2.1`, what a dual-stack socket reports) reads as the IPv4
 * address, so one client has one name whichever way it connected. Anything else is null.
 */
export function parseIp(raw: string): Ip | null {
  let text = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed?.[1] !== undefined) text = bracketed[1];
  else if (/^[\d.]+:\d{1,5}$/.test(text)) text = text.slice(0, text.indexOf(":"));
  text = text.replace(/%[\w.-]+$/, "");
  if (isIPv4(text)) return { version: 4, bytes: v4Bytes(text), text };
  if (!isIPv6(text)) return null;
  const bytes = v6Bytes(text);
  const mapped = bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) {
    const v4 = bytes.slice(12);
    return { version: 4, bytes: v4, text: v4.join(".") };
  }
  return { version: 6, bytes, text: v6Text(bytes) };
}

/** `10.0.0.0/8`, `2001:db8::/32`, or a bare address (a range of one). Null when malformed. */
export function parseCidr(raw: string): Cidr | null {
  const [address = "", prefixText, extra] = raw.trim().split("/");
  if (extra !== undefined) return null;
  const ip = parseIp(address);
  if (!ip || address.includes("[")) return null;
  const bits = ip.bytes.length * 8;
  // A mapped IPv6 range (`::ffff:10.0.0.0/104`) is read as the IPv4 range it covers.
  const shift = ip.version === 4 && isIPv6(address.trim()) ? 96 : 0;
  if (prefixText === undefined) return { version: ip.version, bytes: ip.bytes, prefix: bits };
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText) - shift;
  if (prefix < 0 || prefix > bits) return null;
  return { version: ip.version, bytes: ip.bytes, prefix };
}

export function inCidr(ip: Ip, range: Cidr): boolean {
  if (ip.version !== range.version) return false;
  const whole = Math.floor(range.prefix / 8);
  for (let i = 0; i < whole; i++) if (ip.bytes[i] !== range.bytes[i]) return false;
  const rest = range.prefix % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((ip.bytes[whole] ?? 0) & mask) === ((range.bytes[whole] ?? 0) & mask);
}

/**
 * The name login throttling counts an address under. An IPv6 client usually holds a whole
 * /64 (RFC 6177, https://www.rfc-editor.org/rfc/rfc6177) and can pick a new address in it
 * for every guess, so IPv6 counts per /64; IPv4 per address. Text that is no address counts
 * as itself.
 */
export function throttleKey(raw: string): string {
  const ip = parseIp(raw);
  if (!ip) return raw;
  if (ip.version === 4) return ip.text;
  const net = new Uint8Array(16);
  net.set(ip.bytes.subarray(0, 8));
  return `${v6Text(net)}/64`;
}

function v4Bytes(text: string): Uint8Array {
  return Uint8Array.from(text.split(".").map(Number));
}

/** Expands an address `isIPv6` accepted (with `::` and an optional dotted tail) to 16 bytes. */
function v6Bytes(address: string): Uint8Array {
  let text = address;
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [left = "", right] = text.split("::");
  const head = left ? left.split(":") : [];
  const back = right ? right.split(":") : [];
  const groups = right === undefined ? head : [...head, ...Array<string>(8 - head.length - back.length).fill("0"), ...back];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = Number.parseInt(g, 16);
    bytes[i * 2] = n >> 8;
    bytes[i * 2 + 1] = n & 0xff;
  });
  return bytes;
}

/** RFC 5952 text (https://www.rfc-editor.org/rfc/rfc5952): lower case, longest zero run as `::`. */
function v6Text(bytes: Uint8Array): string {
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[i * 2] ?? 0) << 8) | (bytes[i * 2 + 1] ?? 0));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart === -1) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}
