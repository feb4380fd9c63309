import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Ctx } from "../../src/core/context";
import { handleApi } from "../../src/server/api/router";

/** The web API router alone on a loopback port, as integration tests call it: its base URL and a way to close it. */
export async function startApiServer(ctx: Ctx): Promise<{ base: string; close(): Promise<void> }> {
  const server = createServer((req, res) => void handleApi(ctx, req, res).catch((e: unknown) => res.writeHead(500).end(String(e))));
  // Idle keep-alive sockets stay open longer than fetch (undici) keeps them, so a test whose
  // client sits idle a few seconds on a loaded machine (building a large bundle, say) never sends
  // its next request into a socket the server is closing (ECONNRESET).
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 61_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeIdleConnections();
      }),
  };
}
