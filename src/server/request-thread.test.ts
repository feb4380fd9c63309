import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { waitFor } from "../../test/support/wait";
import { RequestThread } from "./request-thread";

/** A thread that answers each request with its own thread id and the request, through answerRequests's protocol. */
function standIn(): string {
  const file = join(mkdtempSync(join(tmpdir(), "telltale-thread-")), "thread.mjs");
  writeFileSync(
    file,
    `import { parentPort, threadId, workerData } from "node:worker_threads";
if (workerData.role !== "test-role") throw new Error("wrong role");
parentPort.on("message", ({ id, request }) => parentPort.postMessage({ id, answer: { threadId, request } }));`,
  );
  return file;
}

describe("a request thread", () => {
  it("answers from one thread while asked, and gives it up once idle for idleStopMs", async () => {
    const thread = new RequestThread<string, { threadId: number; request: string }>(standIn(), {
      name: "the test thread",
      role: "test-role",
      heapMb: 64,
      timeoutMs: 10_000,
      idleStopMs: 200,
    });
    try {
      const first = await thread.ask("a");
      const second = await thread.ask("b");
      expect([first.request, second.request]).toEqual(["a", "b"]);
      expect(second.threadId).toBe(first.threadId);
      // No thread runs once it has been idle for idleStopMs.
      await waitFor(async () => thread.eventLoopUtilization() === null, 15_000, "the idle thread to stop");
      const later = await thread.ask("c");
      expect(later.request).toBe("c");
      expect(later.threadId).not.toBe(first.threadId);
    } finally {
      await thread.close();
    }
  });
});
