"use server";

import { revalidatePath } from "next/cache";
import { deleteDeadLetter } from "@/src/core/deadletters/delete";
import { retryDeadLetter } from "@/src/core/deadletters/retry";
import type { OrgAccess } from "@/src/core/orgs/access";
import type { Audit } from "@/src/core/audit/record";
import { action } from "../lib/action";
import { field, type FormState } from "../lib/forms";
import { ctx } from "../lib/app-runtime";

/** The dead letter a form names, or the typed answer for an id that cannot exist. */
async function onDeadLetter(
  { access, form, audit }: { access: OrgAccess; form: FormData; audit: Audit },
  event: "dead-letter.retry" | "dead-letter.remove",
  work: (organizationId: number, id: number) => Promise<void>,
  notice: string,
): Promise<FormState> {
  const id = Number(field(form, "id"));
  if (!Number.isSafeInteger(id) || id <= 0) return { error: "That dead letter does not exist.", code: "not_found" };
  await work(access.org.id, id);
  await audit({ event, target: { type: "dead-letter", id, label: `envelope ${id}` } });
  revalidatePath(`/orgs/${access.org.slug}/dead-letters`);
  return { notice };
}

export const retryDeadLetterAction = action("dead-letter:write", (args) =>
  onDeadLetter(
    args,
    "dead-letter.retry",
    (organizationId, id) => retryDeadLetter({ ctx: ctx(), input: { organizationId, id } }),
    "Queued again: the digest takes it within seconds.",
  ),
);

export const deleteDeadLetterAction = action("dead-letter:write", (args) =>
  onDeadLetter(
    args,
    "dead-letter.remove",
    (organizationId, id) => deleteDeadLetter({ ctx: ctx(), input: { organizationId, id } }),
    "Deleted.",
  ),
);
