"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { isTelltaleError } from "@/src/core/errors";
import { createKey, rotateKey, setKeyActive } from "@/src/core/keys/manage";
import { canManageProjects, organizationFor } from "@/src/core/orgs/access";
import { createProject } from "@/src/core/projects/create-project";
import { projectInOrg } from "@/src/core/projects/queries";
import { forbidden } from "@/src/core/errors";
import { requireUser } from "../lib/auth";
import { field, type FormState } from "../lib/forms";
import { ctx } from "../lib/runtime";

/** Server actions are public endpoints: each one checks who is asking before it changes anything. */
async function managedProject(form: FormData) {
  const user = await requireUser();
  const access = await organizationFor(ctx(), user, field(form, "org"));
  if (!canManageProjects(access.role)) throw forbidden("only owners and admins can change projects");
  const project = await projectInOrg(ctx(), access.org, field(form, "project"));
  return { org: access.org, project };
}

const asFormState = (error: unknown): FormState => {
  if (isTelltaleError(error)) return { error: error.message };
  throw error;
};

export async function createProjectAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = { slug: field(form, "slug"), name: field(form, "name"), platform: field(form, "platform") };
  let target: string;
  try {
    const user = await requireUser();
    const access = await organizationFor(ctx(), user, field(form, "org"));
    if (!canManageProjects(access.role)) throw forbidden("only owners and admins can create projects");
    const { project } = await createProject({
      ctx: ctx(),
      input: { org: access.org.slug, slug: values.slug, name: values.name || undefined, platform: values.platform || undefined },
    });
    target = `/orgs/${access.org.slug}/projects/${project.slug}/settings`;
  } catch (error) {
    return { ...asFormState(error), values };
  }
  redirect(target);
}

export async function createKeyAction(_prev: FormState, form: FormData): Promise<FormState> {
  try {
    const { org, project } = await managedProject(form);
    const key = await createKey({ ctx: ctx(), input: { project, label: field(form, "label") } });
    revalidatePath(`/orgs/${org.slug}/projects/${project.slug}/settings`, "layout");
    return { notice: `Created key “${key.label}”.` };
  } catch (error) {
    return asFormState(error);
  }
}

export async function setKeyActiveAction(form: FormData): Promise<void> {
  const { org, project } = await managedProject(form);
  await setKeyActive({ ctx: ctx(), input: { project, keyId: Number(field(form, "keyId")), active: field(form, "active") === "1" } });
  revalidatePath(`/orgs/${org.slug}/projects/${project.slug}/settings`, "layout");
}

export async function rotateKeyAction(form: FormData): Promise<void> {
  const { org, project } = await managedProject(form);
  await rotateKey({ ctx: ctx(), input: { project, keyId: Number(field(form, "keyId")) } });
  revalidatePath(`/orgs/${org.slug}/projects/${project.slug}/settings`, "layout");
}
