import { ZodError } from "zod";
import { auditor, type Audit } from "@/src/core/audit/record";
import type { Ctx } from "@/src/core/context";
import { isTelltaleError } from "@/src/core/errors";
import { isStorableText } from "@/src/core/identifiers";
import type { OrgAccess } from "@/src/core/orgs/access";
import { authorize } from "@/src/core/permissions/authorize";
import { requireSuperuser } from "@/src/core/permissions/superuser";
import {
  auditEvents,
  NOT_ALLOWED,
  type OrgPermission,
  type PublicPermission,
  type SignedInPermission,
  type SuperuserPermission,
} from "@/src/core/permissions/table";
import type { User } from "@/src/core/accounts/user";
import { clientIp, requireUser } from "./auth";
import { field, type FormState } from "./forms";
import { ctx } from "./app-runtime";

/** The signature of every server action: React's `useActionState` calls it with the last state. */
export type ServerAction = (prev: FormState, form: FormData) => Promise<FormState>;

interface Options {
  /** Form fields handed back on an error, so the form keeps what was typed. */
  keep?: readonly string[];
}

/**
 * Expected failures become a state the form shows; anything else (a bug, or Next's own
 * redirect and not-found signals, which are thrown) propagates. A refusal is never a throw,
 * so it is never a 500 nor reported into the internal project.
 */
async function settle(work: () => Promise<FormState>, form: FormData, options: Options): Promise<FormState> {
  // Checked once here for every action, before any field reaches a query (src/core/identifiers.ts).
  const unstorable = unstorableField(form);
  if (unstorable !== null)
    return {
      error: "A field holds a character that cannot be stored (NUL). Remove it and try again.",
      code: "invalid_input",
      fieldErrors: { [unstorable]: "remove the NUL character" },
    };
  try {
    return await work();
  } catch (error) {
    const kept = options.keep ? { values: Object.fromEntries(options.keep.map((name) => [name, field(form, name)])) } : {};
    if (isTelltaleError(error))
      return { error: error.message, code: error.code, ...(error.details.fields ? { fieldErrors: error.details.fields } : {}), ...kept };
    if (error instanceof ZodError) return { error: error.issues[0]?.message ?? "invalid input", code: "invalid_input", ...kept };
    throw error;
  }
}

/** The first form field whose name or text no database column can hold (a NUL), or null. */
function unstorableField(form: FormData): string | null {
  for (const [name, value] of form.entries()) {
    if (!isStorableText(name)) return "form";
    if (typeof value === "string" && !isStorableText(value)) return name;
  }
  return null;
}

/**
 * A server action on an organization: the signed-in user must hold `permission` in the
 * organization named by the form's `org` field. The only way app/actions/* may export one
 * (test/integration/permissions-static.test.ts checks it).
 */
export function action(
  permission: OrgPermission,
  run: (args: { ctx: Ctx; user: User; access: OrgAccess; form: FormData; audit: Audit }) => Promise<FormState>,
  options: Options = {},
): ServerAction {
  return async (_prev, form) => {
    const user = await requireUser();
    const work = async () => {
      const access = await authorize(ctx(), user, permission, field(form, "org"));
      // The row's audit events, recorded as this user from this address (src/core/audit/record.ts).
      const audit = auditor(ctx(), access.org.id, { user, tokenId: null, ip: await clientIp() }, auditEvents(permission));
      return run({ ctx: ctx(), user, access, form, audit });
    };
    return settle(work, form, options);
  };
}

/**
 * A server action on the signed-in user's own things (their API tokens), registered with a
 * signed-in row of the table; no organization is involved.
 */
export function userAction(
  permission: SignedInPermission,
  run: (args: { ctx: Ctx; user: User; form: FormData }) => Promise<FormState>,
  options: Options = {},
): ServerAction {
  // Every signed-in row allows every user today; the name is what the static test reads.
  void permission;
  return async (_prev, form) => {
    const user = await requireUser();
    return settle(() => run({ ctx: ctx(), user, form }), form, options);
  };
}

/**
 * A server action of server administration: the signed-in user must have the superuser flag
 * (`users.is_superuser`); anyone else is refused like any other refusal, never a throw.
 */
export function superuserAction(
  permission: SuperuserPermission,
  run: (args: { ctx: Ctx; user: User; form: FormData }) => Promise<FormState>,
  options: Options = {},
): ServerAction {
  return async (_prev, form) => {
    const user = await requireUser();
    if (user.is_superuser !== 1) return { error: NOT_ALLOWED, code: "forbidden" };
    return settle(() => run({ ctx: ctx(), user: requireSuperuser(user, permission), form }), form, options);
  };
}

/**
 * A server action anyone may call (sign-in, first setup, sign-out), registered as such in
 * the table. It takes a plain action so those files keep their own shape.
 */
export function publicAction(permission: PublicPermission, run: ServerAction, options: Options = {}): ServerAction {
  // Nothing to ask for a public row: the name is there for the table, the type and the static test.
  void permission;
  return async (prev, form) => settle(() => run(prev, form), form, options);
}
