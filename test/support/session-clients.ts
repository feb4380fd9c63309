import { execFile } from "node:child_process";
import { join } from "node:path";

const SCRIPT = join(import.meta.dirname, "..", "fixtures", "clients", "node-sessions.mjs");

/**
 * Runs the @sentry/node sessions fixture (test/fixtures/clients/node-sessions.mjs) in its own
 * process; resolves with its exit code (a crash exits non-zero, as it should).
 */
export function runNodeSession(
  dsn: string,
  scenario: "crash" | "exit" | "server",
  options: { release: string; environment?: string; user?: string },
): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env, DSN: dsn, RELEASE: options.release, ENVIRONMENT: options.environment ?? "production" };
  if (options.user) env.USER_ID = options.user;
  else delete env.USER_ID;
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [SCRIPT, scenario], { env, timeout: 60_000 }, (error) => {
      if (error && typeof error.code !== "number") reject(error);
    });
    child.on("exit", (code) => resolve(code ?? -1));
  });
}
