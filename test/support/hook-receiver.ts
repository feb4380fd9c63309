import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Hook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HookReceiver {
  base: string;
  port: number;
  hooks: Hook[];
  to(path: string): Hook[];
  /** The statuses `path` answers with, in turn (then 200): `answer("/flaky", 500, 500)`. */
  answer(path: string, ...statuses: number[]): void;
  close(): Promise<void>;
}

/** A local webhook receiver on loopback, as Slack, Discord or a team's own endpoint would be: records every request and answers 200 unless told otherwise. */
export async function startHookReceiver(): Promise<HookReceiver> {
  const hooks: Hook[] = [];
  const plans = new Map<string, number[]>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      hooks.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const status = plans.get(path)?.shift() ?? 200;
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : `boom ${status}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    hooks,
    to: (path) => hooks.filter((h) => h.path === path),
    answer: (path, ...statuses) => plans.set(path, statuses),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
