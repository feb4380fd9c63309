"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { isTelltaleError } from "@/src/core/errors";
import { createKey, rotateKey, setKeyActive } from "@/src/core/keys/manage";
import { canManageProjects, organizationFor } from "@/src/core/orgs/access";
import { createProject } from "@/src/core/projects/create-project";
import { setKeyRateLimit } from "@/src/core/keys/rate-limit";
import { removeProjectQuota, setProjectQuota } from "@/src/core/projects/quotas";
import { updateFilters, updateScrubbing } from "@/src/core/projects/options";
import { saveFingerprintRules } from "@/src/core/issues/grouping-rules";
import { ZodError } from "zod";
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

export async function setKeyRateLimitAction(_prev: FormState, form: FormData): Promise<FormState> {
  try {
    const { org, project } = await managedProject(form);
    const off = field(form, "count") === "";
    await setKeyRateLimit({
      ctx: ctx(),
      input: { projectId: project.id, keyId: Number(field(form, "keyId")), limit: off ? null : { count: field(form, "count"), windowSeconds: field(form, "window") } },
    });
    revalidatePath(`/orgs/${org.slug}/projects/${project.slug}/settings`, "layout");
    return { notice: off ? "Removed the key's rate limit." : "Saved the key's rate limit." };
  } catch (error) {
    return asFormState(error);
  }
}

export async function setQuotaAction(_prev: FormState, form: FormData): Promise<FormState> {
  try {
    const { org, project } = await managedProject(form);
    await setProjectQuota({
      ctx: ctx(),
      input: { projectId: project.id, quota: { category: field(form, "category"), count: field(form, "count"), windowSeconds: field(form, "window") } },
    });
    revalidatePath(`/orgs/${org.slug}/projects/${project.slug}/settings`, "layout");
    return { notice: `Saved the ${field(form, "category")} quota.` };
  } catch (error) {
    return asFormState(error);
  }
}

export async function removeQuotaAction(form: FormData): Promise<void> {
  const { org, project } = await managedProject(form);
  await removeProjectQuota({ ctx: ctx(), input: { projectId: project.id, category: field(form, "category") } });
  revalidatePath(`/orgs/${org.slug}/projects/${project.slug}/settings`, "layout");
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

export async function saveFiltersAction(_prev: FormState, form: FormData): Promise<FormState> {
  try {
    const { org, project } = await managedProject(form);
    const on = (name: string) => form.get(name) === "on";
    await updateFilters({
      ctx: ctx(),
      input: {
        projectId: project.id,
        changes: {
          scriptError: on("scriptError"),
          resizeObserver: on("resizeObserver"),
          browserExtensions: on("browserExtensions"),
          localhost: on("localhost"),
          webCrawlers: on("webCrawlers"),
          legacyBrowsers: on("legacyBrowsers"),
          errorMessages: lines(field(form, "errorMessages")),
          releases: lines(field(form, "releases")),
        },
      },
    });
    revalidatePath(`/orgs/${org.slug}/projects/${project.slug}/settings`, "layout");
    return { notice: "Saved the inbound filters. They apply to events digested from now on." };
  } catch (error) {
    if (error instanceof ZodError) return { error: error.issues[0]?.message ?? "invalid filters" };
    return asFormState(error);
  }
}

export async function saveScrubbingAction(_prev: FormState, form: FormData): Promise<FormState> {
  try {
    const { org, project } = await managedProject(form);
    await updateScrubbing({
      ctx: ctx(),
      input: {
        projectId: project.id,
        scrubbing: {
          extraSensitiveFields: lines(field(form, "extraSensitiveFields")),
          safeFields: lines(field(form, "safeFields")),
          storeIpAddresses: form.get("storeIpAddresses") === "on",
        },
      },
    });
    revalidatePath(`/orgs/${org.slug}/projects/${project.slug}/settings`, "layout");
    return { notice: "Saved the data scrubbing settings." };
  } catch (error) {
    if (error instanceof ZodError) return { error: error.issues[0]?.message ?? "invalid settings" };
    return asFormState(error);
  }
}

export async function saveFingerprintRulesAction(_prev: FormState, form: FormData): Promise<FormState> {
  try {
    const { org, project } = await managedProject(form);
    await saveFingerprintRules({ ctx: ctx(), input: { projectId: project.id, text: field(form, "rules") } });
    revalidatePath(`/orgs/${org.slug}/projects/${project.slug}/settings`, "layout");
    return { notice: "Saved the fingerprint rules. They apply to events digested from now on." };
  } catch (error) {
    return { ...asFormState(error), values: { rules: field(form, "rules") } };
  }
}
