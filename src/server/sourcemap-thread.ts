import { parentPort, workerData } from "node:worker_threads";
import { LocalMapResolver, type MapResolver, type ResolveAnswer, type ResolveRequest } from "../core/sourcemaps/resolver";
import { log } from "./log";
import { answerRequests, RequestThread } from "./request-thread";

/**
 * Source maps are decoded in a thread of their own, started by the digest thread on first use
 *: parsing a 50 MB map and indexing the functions of its minified file take seconds
 * of CPU, during which the digest goes on with other projects' events (an event waiting for
 * its map is deferred, see src/core/digest/enrich/run.ts). The thread keeps what it decoded,
 * bounded by weight; a request it has not answered in a minute, or the thread dying (say, out of
 * its memory limit), fails the requests in flight and the next request starts a new thread.
 */

/** Decoded maps and scope indexes the thread keeps, by weight (about three times a map's text). */
const CACHE_WEIGHT = 256 * 1024 * 1024;
/** A heap for maps this size and their minified files' syntax trees (src/core/sourcemaps/limits.ts). */
const HEAP_MB = 1536;
const REQUEST_TIMEOUT_MS = 60_000;

/** Tells the thread this module was started as from a thread that merely imports it (the digest's). */
const ROLE = "telltale-sourcemaps";

if (parentPort && (workerData as { role?: unknown } | null)?.role === ROLE) {
  const resolver = new LocalMapResolver(CACHE_WEIGHT);
  answerRequests(parentPort, (request: ResolveRequest) => resolver.resolveNow(request));
}

/** The digest thread's side: a MapResolver whose work runs in the source-map thread. */
export class ThreadMapResolver implements MapResolver {
  private readonly thread: RequestThread<ResolveRequest, ResolveAnswer>;

  constructor(entry: URL) {
    this.thread = new RequestThread(entry, {
      name: "the source-map thread",
      role: ROLE,
      heapMb: HEAP_MB,
      timeoutMs: REQUEST_TIMEOUT_MS,
      onFailure: (error) => log("warn", "the source-map thread failed; it starts again on the next map", { error: error.message }),
    });
  }

  resolve(request: ResolveRequest): Promise<ResolveAnswer> {
    return this.thread.ask(request);
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
