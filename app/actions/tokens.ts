"use server";

import { revalidatePath } from "next/cache";
import { invalidInput } from "@/src/core/errors";
import { isScope, type Scope } from "@/src/core/tokens/scopes";
import { issueOrgToken, issueToken, listOrgTokens, revokeOrgToken, revokeToken } from "@/src/core/tokens/tokens";
import { action, userAction } from "../lib/action";
import { field } from "../lib/forms";
import { SCOPE_RESOURCES } from "../orgs/[org]/tokens/scope-resources";

/** The scopes the form's per-resource levels grant: a level and every level below it. */
function chosenScopes(form: FormData): Scope[] {
  const scopes: Scope[] = [];
  for (const resource of SCOPE_RESOURCES) {
    const level = field(form, `scope-${resource.id}`);
    if (level === "" || level === "none") continue;
    const option = resource.levels.find((l) => l.value === level);
    if (!option) throw invalidInput(`unknown access level for ${resource.label}`);
    scopes.push(...option.scopes.filter(isScope));
  }
  return scopes;
}

const EXPIRY_DAYS: Record<string, number | undefined> = { never: undefined, "30": 30, "90": 90, "365": 365 };

export const createTokenAction = userAction(
  "token:write",
  async ({ ctx, user, form }) => {
    const expiry = field(form, "expiry") || "never";
    if (!(expiry in EXPIRY_DAYS)) throw invalidInput("choose when the token expires");
    const days = EXPIRY_DAYS[expiry];
    const name = field(form, "name");
    const { token } = await issueToken(ctx, user.id, { name, scopes: chosenScopes(form), ...(days ? { expiresInDays: days } : {}) });
    revalidatePath(`/orgs/${field(form, "org")}/tokens`);
    return { notice: `Created token “${name.trim()}”. Copy it now: it is not shown again.`, values: { token } };
  },
  { keep: ["name"] },
);

export const revokeTokenAction = userAction("token:write", async ({ ctx, user, form }) => {
  const id = Number(field(form, "tokenId"));
  if (!Number.isSafeInteger(id)) throw invalidInput("no such token");
  await revokeToken(ctx, user.id, id);
  revalidatePath(`/orgs/${field(form, "org")}/tokens`);
  return { notice: "Revoked: the token no longer works." };
});

export const createOrgTokenAction = action(
  "org-token:write",
  async ({ ctx, user, access, form, audit }) => {
    const name = field(form, "name");
    const { id, token } = await issueOrgToken(ctx, user.id, access.org, { name });
    await audit({ event: "orgauthtoken.create", target: { type: "orgauthtoken", id, label: name.trim() } });
    revalidatePath(`/orgs/${access.org.slug}/tokens`);
    return { notice: `Created organization token “${name.trim()}”. Copy it now: it is not shown again.`, values: { token } };
  },
  { keep: ["name"] },
);

export const revokeOrgTokenAction = action("org-token:write", async ({ ctx, access, form, audit }) => {
  const id = Number(field(form, "tokenId"));
  if (!Number.isSafeInteger(id)) throw invalidInput("no such token");
  const name = (await listOrgTokens(ctx, access.org.id)).find((t) => t.id === id)?.name ?? `token ${id}`;
  await revokeOrgToken(ctx, access.org.id, id);
  await audit({ event: "orgauthtoken.remove", target: { type: "orgauthtoken", id, label: name } });
  revalidatePath(`/orgs/${access.org.slug}/tokens`);
  return { notice: "Revoked: the token no longer works." };
});
