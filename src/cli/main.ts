import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { settings, SettingsError, type Settings } from "../config/settings";
import { createUser } from "../core/accounts/create-user";
import { setPasswordByEmail } from "../core/accounts/change-password";
import { resetTwoFactorByEmail } from "../core/twofactor/manage";
import { buildDsn } from "../core/auth/dsn";
import type { Ctx } from "../core/context";
import { isTelltaleError } from "../core/errors";
import { createOrganization } from "../core/orgs/create-org";
import { createProject } from "../core/projects/create-project";
import { createCtx } from "../db/create-ctx";
import { isScope, SCOPES, type Scope } from "../core/tokens/scopes";
import { createOrgToken, createToken, listTokens, revokeToken, userIdByEmail } from "../core/tokens/tokens";
import { listKeys } from "../core/keys/manage";
import { setKeyRateLimit } from "../core/keys/rate-limit";
import { findProject } from "../core/projects/queries";
import { removeProjectQuota, setProjectQuota } from "../core/projects/quotas";
import { serializeKey } from "../server/api/serialize";
import { connect } from "../db/connect";
import { migrate } from "../db/migrate";
import { log, setLogLevel } from "../server/log";
import { serve } from "../server/serve";
import { PLATFORM_IDS } from "../core/projects/platforms";
import { parseArgs, type Args } from "./args";
import { databaseLine } from "./database-line";

const USAGE = `Usage: telltale <command> [options]   (every command takes --json)

  serve                                         run the server (npm start builds first)
  migrate                                       bring the database to the newest schema
  user create --email E --password P [--name N] [--superuser]
  user set-password --email E --password P      signs the user out everywhere
  user reset-2fa --email E                      turns off the user's two-factor sign-in (a lost
                                                authenticator and recovery codes); signs them out
  org create --slug S [--name N] [--owner EMAIL]
  project create --org S --slug P [--name N] [--platform ID]
      ID is one of: ${PLATFORM_IDS.join(", ")}
  token create --user EMAIL [--name N] [--scopes S,S…] [--expires-days D] [--org S]
                                                prints an API token for Authorization: Bearer;
                                                without --scopes it may do all its user's role allows;
                                                with --org, an organization token (sntrys_…) for CI
  token list --user EMAIL                       the user's tokens (never the tokens themselves)
  token revoke --user EMAIL --id N              the token stops working at once
  key list --org S --project P                  the project's DSN keys
  key limit --org S --project P --key PUBLIC_KEY (--count N --window SECONDS | --off)
  project quota --org S --project P --category C (--count N --window SECONDS | --remove)

Settings come from the environment; see the README. The database in use is named on stderr
(TELLTALE_LOG_LEVEL=warn leaves it out).`;

class UsageError extends Error {}

interface Output {
  json: boolean;
  print(human: string, data: unknown): void;
}

function flag(args: Args, name: string, required: true): string;
function flag(args: Args, name: string, required?: false): string | undefined;
function flag(args: Args, name: string, required = false): string | undefined {
  const value = args.flags.get(name);
  if (value === true) throw new UsageError(`--${name} needs a value`);
  if (value === undefined && required) throw new UsageError(`missing --${name}`);
  return value;
}

/** `--scopes a,b`: Sentry's scope names, each checked. */
function scopeList(text: string): Scope[] {
  const names = text.split(",").map((s) => s.trim());
  const unknown = names.find((n) => !isScope(n));
  if (unknown !== undefined) throw new UsageError(`unknown scope '${unknown}'; scopes are: ${SCOPES.join(", ")}`);
  return names.filter(isScope);
}

async function withCtx<T>(config: Settings, run: (ctx: Ctx) => Promise<T>): Promise<T> {
  const store = connect(config.database);
  try {
    await migrate(store);
    return await run(createCtx(config, store));
  } finally {
    await store.close();
  }
}

type Command = (args: Args, config: Settings, out: Output) => Promise<void>;

const COMMANDS: Record<string, Command> = {
  async serve(_args, config) {
    // dist/cli.js sits one level below the app directory (where .next lives).
    const running = await serve(config, resolve(dirname(fileURLToPath(import.meta.url)), ".."));
    const stop = (signal: NodeJS.Signals) => {
      const started = Date.now();
      log("info", "shutting down", { signal });
      // A second signal (Ctrl-C twice) means now: stop waiting for workers and open requests.
      process.once(signal, () => process.exit(1));
      void running.close().then(() => {
        log("info", "stopped", { ms: Date.now() - started });
        process.exit(0);
      });
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  },
  async migrate(_args, config, out) {
    const store = connect(config.database);
    try {
      const { applied } = await migrate(store);
      out.print(applied.length ? `applied ${applied.join(", ")}` : "the database is up to date", { applied });
    } finally {
      await store.close();
    }
  },
  "user create": (args, config, out) =>
    withCtx(config, async (ctx) => {
      const user = await createUser({
        ctx,
        input: {
          email: flag(args, "email", true),
          password: flag(args, "password", true),
          name: flag(args, "name") ?? "",
          superuser: args.flags.get("superuser") === true,
        },
      });
      out.print(`created user ${user.email}${user.is_superuser ? " (superuser)" : ""}`, {
        id: String(user.id),
        email: user.email,
        isSuperuser: user.is_superuser === 1,
      });
    }),
  "user set-password": (args, config, out) =>
    withCtx(config, async (ctx) => {
      const user = await setPasswordByEmail({ ctx, input: { email: flag(args, "email", true), password: flag(args, "password", true) } });
      out.print(`set a new password for ${user.email}; every session of theirs was signed out`, { id: String(user.id), email: user.email });
    }),
  "user reset-2fa": (args, config, out) =>
    withCtx(config, async (ctx) => {
      const user = await resetTwoFactorByEmail({ ctx, input: { email: flag(args, "email", true) } });
      out.print(`turned off two-factor sign-in for ${user.email}; every session of theirs was signed out`, {
        id: String(user.id),
        email: user.email,
      });
    }),
  "org create": (args, config, out) =>
    withCtx(config, async (ctx) => {
      const org = await createOrganization({
        ctx,
        input: { slug: flag(args, "slug", true), name: flag(args, "name"), owner: flag(args, "owner") },
      });
      out.print(`created organization ${org.slug}`, { id: String(org.id), slug: org.slug, name: org.name });
    }),
  "project create": (args, config, out) =>
    withCtx(config, async (ctx) => {
      const { project, key } = await createProject({
        ctx,
        input: { org: flag(args, "org", true), slug: flag(args, "slug", true), name: flag(args, "name"), platform: flag(args, "platform") },
      });
      const dsn = buildDsn(ctx.publicUrl, key.public_key, project.id);
      out.print(dsn, { id: String(project.id), slug: project.slug, dsn });
    }),
  "token create": (args, config, out) =>
    withCtx(config, async (ctx) => {
      const scopes = flag(args, "scopes");
      const days = flag(args, "expires-days");
      const org = flag(args, "org");
      if (org !== undefined) {
        // An organization token (sntrys_…): it carries the URL and organization; it does not expire.
        if (days !== undefined) throw new UsageError("--expires-days is for personal tokens; revoke an organization token instead");
        const { id, token } = await createOrgToken({
          ctx,
          input: {
            user: flag(args, "user", true),
            org,
            name: flag(args, "name"),
            ...(scopes === undefined ? {} : { scopes: scopeList(scopes) }),
          },
        });
        return out.print(token, { id: String(id), token });
      }
      const { id, token } = await createToken({
        ctx,
        input: {
          user: flag(args, "user", true),
          name: flag(args, "name"),
          ...(scopes === undefined ? {} : { scopes: scopeList(scopes) }),
          ...(days === undefined ? {} : { expiresInDays: Number(days) }),
        },
      });
      out.print(token, { id: String(id), token });
    }),
  "token list": (args, config, out) =>
    withCtx(config, async (ctx) => {
      const tokens = await listTokens(ctx, await userIdByEmail(ctx, flag(args, "user", true)));
      const state = (t: (typeof tokens)[number]) =>
        t.revokedAt !== null ? "revoked" : t.expiresAt !== null && t.expiresAt <= ctx.now() ? "expired" : "active";
      out.print(
        tokens
          .map(
            (t) =>
              `${String(t.id).padStart(4)}  ${t.prefix}…  ${state(t).padEnd(7)}  ${t.name}  ${t.scopes?.join(",") ?? "all scopes of the role"}`,
          )
          .join("\n"),
        tokens.map((t) => ({ ...t, id: String(t.id), state: state(t) })),
      );
    }),
  "token revoke": (args, config, out) =>
    withCtx(config, async (ctx) => {
      const id = Number(flag(args, "id", true));
      if (!Number.isSafeInteger(id)) throw new UsageError("--id must be a token id (see token list)");
      await revokeToken(ctx, await userIdByEmail(ctx, flag(args, "user", true)), id);
      out.print(`revoked token ${id}`, { id: String(id), revoked: true });
    }),
  "key list": (args, config, out) =>
    withCtx(config, async (ctx) => {
      const project = await findProject(ctx, flag(args, "org", true), flag(args, "project", true));
      const keys = (await listKeys(ctx, project)).map((k) => serializeKey(k, ctx.publicUrl));
      out.print(
        keys
          .map(
            (k) =>
              `${k.public}  ${k.isActive ? "active  " : "disabled"}  ${k.rateLimit ? `${k.rateLimit.count}/${k.rateLimit.window}s` : "no limit"}  ${k.name}  ${k.dsn.public}`,
          )
          .join("\n"),
        keys,
      );
    }),
  "key limit": (args, config, out) =>
    withCtx(config, async (ctx) => {
      const project = await findProject(ctx, flag(args, "org", true), flag(args, "project", true));
      const publicKey = flag(args, "key", true);
      const key = (await listKeys(ctx, project)).find((k) => k.public_key === publicKey);
      if (!key) throw new UsageError(`key '${publicKey}' does not belong to project '${project.slug}'`);
      const off = args.flags.get("off") === true;
      const limit = off ? null : { count: flag(args, "count", true), windowSeconds: flag(args, "window", true) };
      await setKeyRateLimit({ ctx, input: { projectId: project.id, keyId: key.id, limit } });
      out.print(
        off
          ? `removed the rate limit of key ${publicKey}`
          : `key ${publicKey}: at most ${limit?.count} events per ${limit?.windowSeconds} s`,
        { key: publicKey, rateLimit: limit && { count: Number(limit.count), window: Number(limit.windowSeconds) } },
      );
    }),
  "project quota": (args, config, out) =>
    withCtx(config, async (ctx) => {
      const project = await findProject(ctx, flag(args, "org", true), flag(args, "project", true));
      const category = flag(args, "category", true);
      if (args.flags.get("remove") === true) {
        await removeProjectQuota({ ctx, input: { projectId: project.id, category } });
        out.print(`removed the ${category} quota of ${project.slug}`, { category, removed: true });
        return;
      }
      const quota = { category, count: flag(args, "count", true), windowSeconds: flag(args, "window", true) };
      await setProjectQuota({ ctx, input: { projectId: project.id, quota } });
      out.print(`${project.slug}: at most ${quota.count} ${category} per ${quota.windowSeconds} s`, {
        category,
        count: Number(quota.count),
        window: Number(quota.windowSeconds),
      });
    }),
};

/** The flags each command reads (besides --json and --help); every other flag is a mistake, not a no-op. */
const FLAGS: Record<keyof typeof COMMANDS, readonly string[]> = {
  serve: [],
  migrate: [],
  "user create": ["email", "password", "name", "superuser"],
  "user set-password": ["email", "password"],
  "user reset-2fa": ["email"],
  "org create": ["slug", "name", "owner"],
  "project create": ["org", "slug", "name", "platform"],
  "token create": ["user", "name", "scopes", "expires-days", "org"],
  "token list": ["user"],
  "token revoke": ["user", "id"],
  "key list": ["org", "project"],
  "key limit": ["org", "project", "key", "count", "window", "off"],
  "project quota": ["org", "project", "category", "count", "window", "remove"],
};

/** Why these arguments are wrong for the command, or null: an unknown flag or a stray word. */
function misuse(name: string, args: Args): string | null {
  const known = FLAGS[name] ?? [];
  const unknown = [...args.flags.keys()].find((f) => !known.includes(f));
  if (unknown !== undefined) {
    return `unknown flag --${unknown} for '${name}'${known.length ? ` (it takes ${known.map((f) => `--${f}`).join(", ")})` : " (it takes none)"}`;
  }
  const extra = args.positional.slice(name.split(" ").length);
  return extra.length ? `unexpected argument '${extra.join(" ")}' for '${name}'` : null;
}

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const json = args.flags.get("json") === true;
  args.flags.delete("json");
  const out: Output = { json, print: (human, data) => process.stdout.write((json ? JSON.stringify(data) : human) + "\n") };
  const fail = (message: string, code: number) => {
    process.stderr.write(json ? JSON.stringify({ error: message }) + "\n" : `telltale: ${message}\n`);
    return code;
  };

  if (args.positional.length === 0 || args.flags.has("help")) {
    process.stdout.write(USAGE + "\n");
    return args.positional.length === 0 && !args.flags.has("help") ? 2 : 0;
  }
  const name = [args.positional.slice(0, 2).join(" "), args.positional[0] ?? ""].find((n) => n in COMMANDS);
  const command = name ? COMMANDS[name] : undefined;
  if (!command || !name) return fail(`unknown command '${args.positional.join(" ")}'\n\n${USAGE}`, 2);
  const wrong = misuse(name, args);
  if (wrong) return fail(`${wrong}\n\n${USAGE}`, 2);
  try {
    const config = settings();
    setLogLevel(config.logLevel);
    // stderr, so that stdout stays the command's result (`DSN=$(telltale project create …)`).
    if (config.logLevel === "debug" || config.logLevel === "info") process.stderr.write(databaseLine(config.database) + "\n");
    await command(args, config, out);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) return fail(`${error.message}\n\n${USAGE}`, 2);
    if (error instanceof SettingsError) return fail(error.message, 2);
    if (isTelltaleError(error)) return fail(error.message, 1);
    return fail(error instanceof Error ? (error.stack ?? error.message) : String(error), 1);
  }
}
