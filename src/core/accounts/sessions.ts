import UAParser from "ua-parser-js";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import { hashSessionToken } from "./login";
import type { User } from "./user";

/** A session's last-seen time is written at most this often, not on every request. */
export const LAST_SEEN_EVERY_MS = 60_000;

/** The user a session cookie belongs to, or null when it is unknown or expired. */
export async function userForSession(ctx: Ctx, token: string | undefined): Promise<User | null> {
  if (!token || token.length > 128) return null;
  const now = ctx.now();
  const id = hashSessionToken(token);
  const session = await ctx.accounts.sessionUser(id, now);
  if (!session) return null;
  // Concurrent requests of one session write it once a minute at most.
  if (now - session.lastSeenAt >= LAST_SEEN_EVERY_MS) await ctx.accounts.touchSession(id, now, now - LAST_SEEN_EVERY_MS);
  return session.user;
}

export async function logout(ctx: Ctx, token: string | undefined): Promise<void> {
  if (!token) return;
  await ctx.accounts.endSession(hashSessionToken(token));
}

/** One row of the account page's session list. */
export interface SessionView {
  /** The stored hash: it names the session for revoking and cannot be used as a cookie. */
  id: string;
  browser: string;
  device: string;
  ip: string;
  signedInAt: number;
  lastActiveAt: number;
  current: boolean;
}

const parser = new UAParser();

/** "Chrome 131" and "Linux" (or "iPhone, iOS 18"): what a person recognises their device by. */
export function describeUserAgent(ua: string): { browser: string; device: string } {
  const r = parser.setUA(ua.slice(0, 512)).getResult();
  const browser = [r.browser.name, r.browser.major].filter(Boolean).join(" ") || "Unknown browser";
  const os = [r.os.name, r.os.version].filter(Boolean).join(" ");
  const model = [r.device.vendor, r.device.model].filter(Boolean).join(" ");
  const device = [model, os].filter(Boolean).join(", ") || "Unknown device";
  return { browser, device };
}

/** The user's live sessions, most recently active first; the one of `currentToken` marked. */
export async function listSessions(ctx: Ctx, userId: number, currentToken: string | undefined): Promise<SessionView[]> {
  const current = currentToken ? hashSessionToken(currentToken) : null;
  const rows = await ctx.accounts.liveSessions(userId, ctx.now());
  return rows
    .map((s) => ({
      id: s.id,
      ...describeUserAgent(s.user_agent),
      ip: s.ip,
      signedInAt: s.created_at,
      lastActiveAt: s.last_seen_at ?? s.created_at,
      current: s.id === current,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt - a.lastActiveAt);
}

/** Ends one of the user's own sessions; another user's is "not found". */
export async function revokeSession(ctx: Ctx, userId: number, sessionId: string): Promise<void> {
  if (!(await ctx.accounts.deleteSession(userId, sessionId))) throw notFound("That session has already ended.");
}

/** Ends every session of the user, or every one but `keepToken`'s. */
export async function endSessions(ctx: Ctx, userId: number, keepToken?: string): Promise<void> {
  await ctx.accounts.deleteSessions(userId, keepToken ? hashSessionToken(keepToken) : null);
}
