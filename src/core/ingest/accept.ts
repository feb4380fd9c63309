import type { Ctx } from "../context";
import { findPublicKey, type AuthSources } from "../auth/ingest-auth";

export type AcceptResult =
  | { ok: true; id: string | null }
  | { ok: false; status: 400 | 401 | 403; reason: string };

export interface AcceptInput {
  projectId: number;
  endpoint: "envelope" | "store";
  auth: Omit<AuthSources, "envelopeDsn">;
  body: Buffer;
}

const EVENT_ID = /^[0-9a-f]{32}$/i;

/** The first line of an envelope, parsed, or null when it is not a JSON object. */
function envelopeHeader(body: Buffer): Record<string, unknown> | null {
  const nl = body.indexOf(0x0a);
  const line = body.subarray(0, nl === -1 ? body.length : nl).toString("utf8").trim();
  if (line === "") return {};
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function storeEventId(body: Buffer): string | null | undefined {
  try {
    const value: unknown = JSON.parse(body.toString("utf8"));
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    const id = (value as Record<string, unknown>).event_id;
    return typeof id === "string" && EVENT_ID.test(id) ? id.toLowerCase() : null;
  } catch {
    return undefined;
  }
}

/**
 * The request path of ingest: authenticate the key against the project in the path and
 * store the body durably. Parsing items, limits per item, filters and rate limits belong
 * to the ingest issue; what is accepted here is kept for the digest step.
 */
export async function acceptRequest({ ctx, input }: { ctx: Ctx; input: AcceptInput }): Promise<AcceptResult> {
  let id: string | null = null;
  let envelopeDsn: string | undefined;
  if (input.endpoint === "envelope") {
    const header = envelopeHeader(input.body);
    if (!header) return { ok: false, status: 400, reason: "invalid envelope header: the first line must be a JSON object" };
    if (typeof header.dsn === "string") envelopeDsn = header.dsn;
    if (typeof header.event_id === "string" && EVENT_ID.test(header.event_id)) id = header.event_id.toLowerCase();
  } else {
    const eventId = storeEventId(input.body);
    if (eventId === undefined) return { ok: false, status: 400, reason: "invalid event: the body must be a JSON object" };
    id = eventId;
  }

  const found = findPublicKey({ ...input.auth, envelopeDsn });
  if (!found.ok) return { ok: false, status: 401, reason: found.reason };
  if (found.projectId !== undefined && Number(found.projectId) !== input.projectId) {
    return { ok: false, status: 400, reason: "the DSN in the envelope header names another project than the URL" };
  }
  const key = await ctx.db
    .selectFrom("project_keys")
    .select(["id", "project_id", "is_active"])
    .where("public_key", "=", found.publicKey)
    .executeTakeFirst();
  if (!key) return { ok: false, status: 401, reason: "unknown public key" };
  if (key.project_id !== input.projectId) return { ok: false, status: 403, reason: "the public key does not belong to this project" };
  if (key.is_active !== 1) return { ok: false, status: 403, reason: "the public key is disabled" };

  await ctx.db
    .insertInto("ingest_queue")
    .values({ project_id: input.projectId, key_id: key.id, endpoint: input.endpoint, received_at: ctx.now(), body: input.body })
    .execute();
  return { ok: true, id };
}
