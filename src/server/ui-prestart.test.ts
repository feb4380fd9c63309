import { mkdtempSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isUiStartMessage, launchUi, prestartUi, takePrestartedUi, type UiStartMessage } from "./ui-prestart";

/**
 * A stand-in for next-worker.js: answers the start message with what it was given, and exits
 * when told to (not straight after answering, so the answer never races the thread's exit).
 */
function echoWorker(): string {
  const file = join(mkdtempSync(join(tmpdir(), "telltale-ui-")), "worker.mjs");
  writeFileSync(
    file,
    `import { parentPort, workerData } from "node:worker_threads";
parentPort.on("message", (m) => {
  if (m.type === "start") parentPort.postMessage({ workerData, start: m });
  if (m.type === "bye") process.exit(0);
});`,
  );
  return file;
}

describe("the UI worker started ahead of serve", () => {
  it("waits for its start message and gets its socket path and app directory", async () => {
    const launched = launchUi(echoWorker(), "/srv/telltale");
    expect(launched.input.socketPath).toMatch(new RegExp(`telltale-${process.pid}-\\w+\\.sock$`));
    const start: UiStartMessage = { type: "start", loopbackUrl: "http://127.0.0.1:9000" };
    launched.worker.postMessage(start);
    const answer = await Promise.race([
      once(launched.worker, "message").then(([m]) => m as unknown),
      once(launched.worker, "exit").then(([code]) => ({ exitedWithoutAnswer: code as unknown })),
    ]);
    expect(answer).toEqual({ workerData: launched.input, start });
    const exited = once(launched.worker, "exit");
    launched.worker.postMessage({ type: "bye" });
    await exited;
    expect(launched.exitCode).toBe(0);
  });

  it("is taken over once, and only for the app directory it was started for", async () => {
    prestartUi(echoWorker(), "/srv/a");
    const taken = takePrestartedUi("/srv/a");
    expect(taken?.input.dir).toBe("/srv/a");
    expect(takePrestartedUi("/srv/a")).toBeUndefined();
    await taken?.worker.terminate();

    prestartUi(echoWorker(), "/srv/a");
    expect(takePrestartedUi("/srv/b")).toBeUndefined();
    expect(takePrestartedUi("/srv/a")).toBeUndefined();
  });

  it("tells a start message from anything else", () => {
    expect(isUiStartMessage({ type: "start", loopbackUrl: "http://127.0.0.1:1" })).toBe(true);
    expect(isUiStartMessage("shutdown")).toBe(false);
    expect(isUiStartMessage(null)).toBe(false);
  });
});
