/**
 * The client address the front resolved (src/server/proxy.ts). The worker reads it only
 * because the front overwrites it on every request it forwards.
 */
export const CLIENT_IP_HEADER = "x-telltale-client-ip";
