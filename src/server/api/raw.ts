import type { ServerResponse } from "node:http";

/**
 * A non-JSON answer of the web API (an attachment download), streamed chunk by chunk. The
 * content type is forced to a download so stored bytes are never rendered by the browser.
 */
export class RawResponse {
  constructor(
    readonly filename: string,
    readonly size: number,
    readonly chunks: AsyncIterable<Buffer>,
  ) {}

  async send(res: ServerResponse): Promise<void> {
    const safeName = this.filename.replace(/[^\w.\- ]+/g, "_").slice(0, 200) || "attachment";
    res.writeHead(200, {
      "content-type": "application/octet-stream",
      "content-length": String(this.size),
      "content-disposition": `attachment; filename="${safeName}"`,
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
    });
    for await (const chunk of this.chunks) {
      if (!res.write(chunk)) await new Promise((r) => res.once("drain", r));
    }
    res.end();
  }
}

/** A JSON answer with extra headers (Sentry's `Link` pagination header), or another status (208 Already Reported). */
export class JsonWithHeaders {
  constructor(
    readonly body: unknown,
    readonly headers: Record<string, string>,
    readonly status = 200,
  ) {}
}

/** An empty answer: Sentry's 204 for a DELETE that worked, or its 202 for a deletion it queues. */
export class NoContent {
  constructor(readonly status: 204 | 202 = 204) {}

  send(res: ServerResponse): void {
    res.writeHead(this.status).end();
  }
}

/** A JSON answer with another status than 200: Sentry's 201 for what a POST created. */
export class Created {
  constructor(readonly body: unknown) {}
}
