import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Ctx } from "../../src/core/context";
import { handleApi } from "../../src/server/api/router";

/** The web API router alone on a loopback port, as integration tests call it: its base URL and a way to close it. */
export async function startApiServer(ctx: Ctx): Promise<{ base: string; close(): Promise<void> }> {
  const server = createServer((req, res) => void handleApi(ctx, req, res).catch((e: unknown) => res.writeHead(500).end(String(e))));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
