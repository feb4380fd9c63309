/**
 * Events from the developer's own machine: the user's IP is loopback, or the page URL's
 * host is. Sentry's localhost filter checks the same two fields (its API docs: "applies
 * to both IPv4 (127.0.0.1) and IPv6 (::1) addresses"). Also matched here: the IPv4-mapped
 * form `::ffff:127.0.0.1` (what Node reports for an IPv4 client on a dual-stack socket,
 * should the IP be filled in from the connection) and `*.localhost`, which RFC 6761
 * reserves for loopback. Off by default for new projects: see `DEFAULT_INBOUND_FILTER_CONFIG`.
 */
import { field, requestUrl, text } from "./read";
import { type FilterableEvent, type FilterReason, type InboundFilterConfig } from "./types";

const LOOPBACK_IPS: ReadonlySet<string> = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return LOOPBACK_HOSTS.has(host) || host.endsWith(".localhost");
}

function pageHost(event: FilterableEvent): string | undefined {
  const url = requestUrl(event);
  if (url === undefined) return undefined;
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

export function shouldFilter(event: FilterableEvent, cfg: InboundFilterConfig): FilterReason | null {
  if (!cfg.localhost) return null;
  const ip = text(field(field(event, "user"), "ip_address"));
  if (ip !== undefined && LOOPBACK_IPS.has(ip.trim().toLowerCase())) return "localhost";
  const host = pageHost(event);
  return host !== undefined && isLoopbackHost(host) ? "localhost" : null;
}
