import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..");

/** Runs the @sentry/node fixture client (test/fixtures/clients/node-client.mjs) in its own process. */
export async function runNodeClient(dsn: string, scenario: "basic" | "ratelimit" | "scrub" | "request" | "badspan"): Promise<string> {
  const { stdout } = await run(process.execPath, [join(ROOT, "test/fixtures/clients/node-client.mjs"), scenario], {
    env: { ...process.env, DSN: dsn },
    timeout: 60_000,
  });
  return stdout;
}

/** Runs Debian's python3-sentry-sdk: it is installed for /usr/bin/python3 only, not for a python3 earlier on PATH. */
export async function runPythonClient(dsn: string): Promise<string> {
  const { stdout } = await run("/usr/bin/python3", [join(ROOT, "test/fixtures/clients/python_client.py"), dsn], { timeout: 60_000 });
  return stdout;
}

/** `sentry-cli send-event`, the binary from the @sentry/cli npm package. */
export async function runSentryCli(dsn: string, args: string[]): Promise<string> {
  const { stdout, stderr } = await run(join(ROOT, "node_modules/.bin/sentry-cli"), ["send-event", ...args], {
    env: { ...process.env, SENTRY_DSN: dsn, SENTRY_LOG_LEVEL: "warn" },
    timeout: 60_000,
  });
  return stdout + stderr;
}

/** Any sentry-cli command against a Telltale web API (`SENTRY_URL`, `SENTRY_AUTH_TOKEN`), with its exit code. */
export async function sentryCli(
  url: string | null,
  token: string,
  args: string[],
  options: { cwd?: string } = {},
): Promise<{ code: number; out: string }> {
  // Without a URL, sentry-cli takes the one an organization token carries (none from the caller's environment either).
  const env: NodeJS.ProcessEnv = { ...process.env, SENTRY_AUTH_TOKEN: token, SENTRY_LOG_LEVEL: "warn" };
  delete env.SENTRY_URL;
  delete env.SENTRY_ORG;
  if (url !== null) env.SENTRY_URL = url;
  try {
    const { stdout, stderr } = await run(join(ROOT, "node_modules/.bin/sentry-cli"), args, {
      env,
      timeout: 60_000,
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : 1, out: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}
