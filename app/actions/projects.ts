"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import type { Ctx } from "@/src/core/context";
import { saveFingerprintRules } from "@/src/core/issues/grouping-rules";
import { upgradeGrouping } from "@/src/core/projects/grouping-config";
import { keyTarget, projectTarget } from "@/src/core/audit/targets";
import { createKey, listKeys, rotateKey, setKeyActive } from "@/src/core/keys/manage";
import { setKeyRateLimit } from "@/src/core/keys/rate-limit";
import type { OrgAccess } from "@/src/core/orgs/access";
import { createProject } from "@/src/core/projects/create-project";
import { updateFilters, updateScrubbing } from "@/src/core/projects/options";
import { removeProjectQuota, setProjectQuota } from "@/src/core/projects/quotas";
import { setupPath } from "@/src/core/projects/platforms";
import { projectInOrg } from "@/src/core/projects/queries";
import { action } from "../lib/action";
import { field } from "../lib/forms";

/** The project named by the form, inside the organization the wrapper authorized. */
async function formProject(ctx: Ctx, access: OrgAccess, form: FormData) {
  const project = await projectInOrg(ctx, access, field(form, "project"));
  const refresh = () => revalidatePath(`/orgs/${access.org.slug}/projects/${project.slug}/settings`, "layout");
  return { project, refresh };
}

/** The client key a form names, for the audit log's target. */
async function formKey(ctx: Ctx, project: Awaited<ReturnType<typeof projectInOrg>>, form: FormData) {
  const keyId = Number(field(form, "keyId"));
  const key = (await listKeys(ctx, project)).find((k) => k.id === keyId);
  return key ? keyTarget(key) : { type: "projectkey", id: keyId, label: String(keyId) };
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

export const createProjectAction = action(
  "project:write",
  async ({ ctx, access, form, audit }) => {
    const { project } = await createProject({
      ctx,
      input: {
        org: access.org.slug,
        slug: field(form, "slug"),
        name: field(form, "name") || undefined,
        platform: field(form, "platform") || undefined,
      },
    });
    await audit({ event: "project.create", target: projectTarget(project), after: { slug: project.slug, platform: project.platform } });
    // Straight to its platform's guide, DSN filled in, with the panel that waits for the first event.
    // redirect() throws Next's signal, which the wrapper lets through.
    redirect(`/orgs/${access.org.slug}/projects/${project.slug}/setup/${setupPath(project.platform)}`);
  },
  { keep: ["slug", "name", "platform"] },
);

export const createKeyAction = action("key:write", async ({ ctx, access, form, audit }) => {
  const { project, refresh } = await formProject(ctx, access, form);
  const key = await createKey({ ctx, input: { project, label: field(form, "label") } });
  await audit({ event: "projectkey.create", target: keyTarget(key), after: { project: project.slug } });
  refresh();
  return { notice: `Created key “${key.label}”.` };
});

export const setKeyActiveAction = action("key:write", async ({ ctx, access, form, audit }) => {
  const { project, refresh } = await formProject(ctx, access, form);
  const active = field(form, "active") === "1";
  await setKeyActive({ ctx, input: { project, keyId: Number(field(form, "keyId")), active } });
  await audit({ event: "projectkey.edit", target: await formKey(ctx, project, form), after: { active } });
  refresh();
  return { notice: active ? "Enabled the key." : "Disabled the key." };
});

export const rotateKeyAction = action("key:rotate", async ({ ctx, access, form, audit }) => {
  const { project, refresh } = await formProject(ctx, access, form);
  const old = await formKey(ctx, project, form);
  const replacement = await rotateKey({ ctx, input: { project, keyId: Number(field(form, "keyId")) } });
  await audit({ event: "projectkey.rotate", target: old, after: { replacedBy: replacement.id } });
  refresh();
  return { notice: "Rotated: a new key replaces this one, which is now disabled." };
});

export const setKeyRateLimitAction = action("key:write", async ({ ctx, access, form, audit }) => {
  const { project, refresh } = await formProject(ctx, access, form);
  const off = field(form, "count") === "";
  const limit = off ? null : { count: field(form, "count"), windowSeconds: field(form, "window") };
  await setKeyRateLimit({ ctx, input: { projectId: project.id, keyId: Number(field(form, "keyId")), limit } });
  const after = limit ? { rateLimit: `${limit.count} per ${limit.windowSeconds} s` } : { rateLimit: null };
  await audit({ event: "projectkey.edit", target: await formKey(ctx, project, form), after });
  refresh();
  return { notice: off ? "Removed the key's rate limit." : "Saved the key's rate limit." };
});

export const setQuotaAction = action("project:settings:write", async ({ ctx, access, form, audit }) => {
  const { project, refresh } = await formProject(ctx, access, form);
  const quota = { category: field(form, "category"), count: field(form, "count"), windowSeconds: field(form, "window") };
  await setProjectQuota({ ctx, input: { projectId: project.id, quota } });
  await audit({ event: "project.set-quota", target: projectTarget(project), after: quota });
  refresh();
  return { notice: `Saved the ${field(form, "category")} quota.` };
});

export const removeQuotaAction = action("project:settings:write", async ({ ctx, access, form, audit }) => {
  const { project, refresh } = await formProject(ctx, access, form);
  await removeProjectQuota({ ctx, input: { projectId: project.id, category: field(form, "category") } });
  await audit({ event: "project.remove-quota", target: projectTarget(project), before: { category: field(form, "category") } });
  refresh();
  return { notice: `Removed the ${field(form, "category")} quota.` };
});

export const saveFiltersAction = action("project:settings:write", async ({ ctx, access, form, audit }) => {
  const { project, refresh } = await formProject(ctx, access, form);
  const on = (name: string) => form.get(name) === "on";
  const changes = {
    scriptError: on("scriptError"),
    resizeObserver: on("resizeObserver"),
    browserExtensions: on("browserExtensions"),
    localhost: on("localhost"),
    webCrawlers: on("webCrawlers"),
    legacyBrowsers: on("legacyBrowsers"),
    errorMessages: lines(field(form, "errorMessages")),
    releases: lines(field(form, "releases")),
  };
  await updateFilters({ ctx, input: { projectId: project.id, changes } });
  const { errorMessages, releases, ...switches } = changes;
  const after = { ...switches, errorMessages: errorMessages.length, releases: releases.length };
  await audit({ event: "project.edit-filters", target: projectTarget(project), after });
  refresh();
  return { notice: "Saved the inbound filters. They apply to events digested from now on." };
});

export const saveScrubbingAction = action("project:settings:write", async ({ ctx, access, form, audit }) => {
  const { project, refresh } = await formProject(ctx, access, form);
  const scrubbing = {
    extraSensitiveFields: lines(field(form, "extraSensitiveFields")),
    safeFields: lines(field(form, "safeFields")),
    storeIpAddresses: form.get("storeIpAddresses") === "on",
  };
  await updateScrubbing({ ctx, input: { projectId: project.id, scrubbing } });
  const after = {
    extraSensitiveFields: scrubbing.extraSensitiveFields.join(", "),
    safeFields: scrubbing.safeFields.join(", "),
    storeIpAddresses: scrubbing.storeIpAddresses,
  };
  await audit({ event: "project.edit-scrubbing", target: projectTarget(project), after });
  refresh();
  return { notice: "Saved the data scrubbing settings." };
});

export const saveFingerprintRulesAction = action(
  "project:settings:write",
  async ({ ctx, access, form, audit }) => {
    const { project, refresh } = await formProject(ctx, access, form);
    await saveFingerprintRules({ ctx, input: { projectId: project.id, text: field(form, "rules") } });
    const rules = lines(field(form, "rules")).filter((l) => !l.startsWith("#")).length;
    await audit({ event: "project.edit-grouping", target: projectTarget(project), after: { fingerprintRules: rules } });
    refresh();
    return { notice: "Saved the fingerprint rules. They apply to events digested from now on." };
  },
  { keep: ["rules"] },
);

export const upgradeGroupingAction = action("project:settings:write", async ({ ctx, access, form, audit }) => {
  const { project, refresh } = await formProject(ctx, access, form);
  const state = await upgradeGrouping({ ctx, input: { projectId: project.id, to: field(form, "to") } });
  await audit({ event: "project.edit-grouping", target: projectTarget(project), after: { groupingConfig: state.config } });
  refresh();
  return { notice: `Events now group with ${state.config}; issues made before keep receiving their events during the transition.` };
});
