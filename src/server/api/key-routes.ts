import { keyTarget } from "../../core/audit/targets";
import { invalidInput, notFound } from "../../core/errors";
import { listKeys, setKeyActive } from "../../core/keys/manage";
import { projectInOrg } from "../../core/projects/queries";
import { serializeKey } from "./serialize";
import { route, type ApiRoute } from "./route";

/** Client keys, as Sentry's `/projects/{org}/{project}/keys/` endpoints; `{key_id}` is the public key. */
export const KEY_ROUTES: ApiRoute[] = [
  route("GET", "/projects/{}/{}/keys", "project:read", async ({ ctx, access, params: [, project] }) => {
    const p = await projectInOrg(ctx, access, project ?? "");
    return (await listKeys(ctx, p)).map((k) => serializeKey(k, ctx.publicUrl));
  }),
  route("PUT", "/projects/{}/{}/keys/{}", "key:write", async ({ ctx, access, params: [, project, publicKey], body, audit }) => {
    const p = await projectInOrg(ctx, access, project ?? "");
    const key = (await listKeys(ctx, p)).find((k) => k.public_key === publicKey);
    if (!key) throw notFound(`key '${publicKey ?? ""}' does not exist in project '${p.slug}'`);
    const isActive = body !== null && typeof body === "object" && "isActive" in body ? body.isActive : undefined;
    if (typeof isActive !== "boolean") throw invalidInput('send {"isActive": true} or {"isActive": false}');
    await setKeyActive({ ctx, input: { project: p, keyId: key.id, active: isActive } });
    await audit({ event: "projectkey.edit", target: keyTarget(key), before: { active: key.is_active === 1 }, after: { active: isActive } });
    return serializeKey({ ...key, is_active: isActive ? 1 : 0 }, ctx.publicUrl);
  }),
];
