import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { NOT_ALLOWED } from "../../src/core/permissions/table";
import { createProject } from "../../src/core/projects/create-project";
import type { Role } from "../../src/db/schema";
import { launchBrowser, signIn } from "../support/browser";
import { buildEnvelope, newEventId, send } from "../support/envelopes";
import { queueDrained } from "../support/ingest-db";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

/** Pictures of every page this suite drives, at phone and desktop width, for a person to look at. */
const SHOTS = "test-results/members-teams";

/**
 * Issue 12, item 2: the members, teams and organization settings pages, the project's Teams tab
 * and Delete panel, and assigning an issue to a team, driven in Chromium on both databases.
 */
describe.each(DIALECTS)("members and teams pages on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  let owner: Page;
  let orgId = 0;
  const ids: Record<string, number> = {};

  const roleOf = async (who: string) =>
    (
      await store.db
        .selectFrom("memberships")
        .select("role")
        .where("organization_id", "=", orgId)
        .where("user_id", "=", ids[who]!)
        .executeTakeFirst()
    )?.role;
  const setRole = (who: string, role: Role) =>
    store.db.updateTable("memberships").set({ role }).where("organization_id", "=", orgId).where("user_id", "=", ids[who]!).execute();

  async function shot(page: Page, name: string) {
    if (dialect !== "sqlite") return;
    mkdirSync(SHOTS, { recursive: true });
    const size = page.viewportSize();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
    }
    if (size) await page.setViewportSize(size);
  }

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    for (const [who, name] of [
      ["olive", "Olive Owner"],
      ["mel", "Mel Member"],
      ["ada", ""],
    ] as const)
      ids[who] = (await createUser({ ctx, input: { email: `${who}@example.com`, password: "password-123", name } })).id;
    orgId = (await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: "olive@example.com" } })).id;
    await ctx.directory.addMember(orgId, ids.mel!, "member", [], Date.now() - 3 * 86_400_000);
    await ctx.directory.addMember(orgId, ids.ada!, "admin", [], Date.now() - 86_400_000);
    const { project, key } = await createProject({ ctx, input: { org: "acme", slug: "web", name: "Web", platform: "node" } });
    await createProject({ ctx, input: { org: "acme", slug: "scratch", name: "Scratch", platform: "node" } });
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    const event = { event_id: newEventId(), level: "error", platform: "node", timestamp: Date.now() / 1000, message: "checkout failed" };
    const url = `${server.url}/api/${project.id}/envelope/?sentry_key=${key.public_key}`;
    expect((await send(url, { body: buildEnvelope({}, [{ type: "event", payload: JSON.stringify(event) }]) })).status).toBe(200);
    await queueDrained(store);
    browser = await launchBrowser();
    owner = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(owner, server.url, "olive@example.com", /\/orgs\/acme$/);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  it("lists members with role, teams and when they joined, and changes a role with the role summaries beside it", async () => {
    await owner.goto(`${server.url}/orgs/acme/members`);
    const rows = owner.locator("[data-testid=member-row]");
    expect(await rows.count()).toBe(3);
    const mel = rows.filter({ hasText: "mel@example.com" });
    expect(await mel.textContent()).toContain("none");
    expect(await mel.locator("time").textContent()).toBe("3d ago");
    expect(await owner.locator("[data-testid=role-help]").textContent()).toContain("invites and removes members");
    await mel.locator("select[name=role]").selectOption("manager");
    await mel.getByRole("button", { name: "Change the role of mel@example.com" }).click();
    await expect(mel.locator("[role=status]").textContent()).resolves.toBe("Mel Member is now manager.");
    expect(await roleOf("mel")).toBe("manager");
    // The select shows the role given, not the one the page was first rendered with.
    await expect.poll(() => mel.locator("select[name=role]").inputValue()).toBe("manager");
    // Nobody's row offers the owner's own role change or removal.
    expect(await rows.filter({ hasText: "olive@example.com" }).locator("form").count()).toBe(0);
    await shot(owner, "members");
  });

  it("shows a member demoted while the page was open the refusal under the button", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 900 } });
    await signIn(page, server.url, "mel@example.com", /\/orgs\/acme$/);
    await page.goto(`${server.url}/orgs/acme/members`);
    await setRole("mel", "member");
    const form = page.locator("[data-testid=member-row]", { hasText: "ada@example.com" }).locator("[data-testid=remove-member-form]");
    await form.getByRole("button").click();
    await expect(form.locator("[role=alert]").textContent()).resolves.toBe(NOT_ALLOWED);
    expect(await roleOf("ada")).toBe("admin");
    await shot(page, "members-refused");
    await page.close();
  });

  it("creates a team, adds a member with a team role, gives it a project, renames it", async () => {
    await owner.goto(`${server.url}/orgs/acme/teams`);
    const create = owner.locator("[data-testid=new-team-form]");
    await create.locator("input[name=slug]").fill("Bad Slug");
    await create.locator("button[type=submit]").click();
    await expect(create.locator("[role=alert]").textContent()).resolves.toContain("lowercase letters");
    expect(await create.locator("input[name=slug]").inputValue()).toBe("Bad Slug");
    await create.locator("input[name=slug]").fill("backend");
    await create.locator("input[name=name]").fill("Backend");
    await create.locator("button[type=submit]").click();
    await owner.waitForURL(/\/orgs\/acme\/teams\/backend$/);

    const add = owner.locator("[data-testid=add-team-member-form]");
    await add.locator("select[name=userId]").selectOption({ label: "Mel Member (mel@example.com)" });
    await add.locator("button[type=submit]").click();
    const melRow = owner.locator("[data-testid=team-member-row]", { hasText: "mel@example.com" });
    await melRow.waitFor();
    await melRow.locator("select[name=role]").selectOption("admin");
    await melRow.getByRole("button", { name: "Change the team role of mel@example.com" }).click();
    await expect(melRow.locator("[role=status]").textContent()).resolves.toBe("Now team admin.");
    await expect.poll(() => melRow.locator("select[name=role]").inputValue()).toBe("admin");

    const addProject = owner.locator("[data-testid=add-team-project-form]");
    await addProject.locator("select[name=project]").selectOption("web");
    await addProject.locator("button[type=submit]").click();
    await owner.locator("[data-testid=team-projects] li", { hasText: "Web" }).waitFor();
    await shot(owner, "team");

    const rename = owner.locator("[data-testid=rename-team-form]");
    await rename.locator("input[name=slug]").fill("platform");
    await rename.locator("input[name=name]").fill("Platform");
    await rename.locator("button[type=submit]").click();
    await owner.waitForURL(/\/orgs\/acme\/teams\/platform$/);
    expect(await owner.locator("h1").textContent()).toContain("#platform");

    await owner.goto(`${server.url}/orgs/acme/teams`);
    const rows = owner.locator("[data-testid=team-row]");
    expect(await rows.allTextContents()).toEqual([
      expect.stringMatching(/#acme.*default.*1 member · 2 projects/),
      expect.stringMatching(/#platform.*Platform.*2 members · 1 project/),
    ]);
    await shot(owner, "teams");
  });

  it("lets members join and leave teams under open membership, and only team admins add others when it is off", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.url, "ada@example.com", /\/orgs\/acme$/);
    await page.goto(`${server.url}/orgs/acme/teams`);
    await page.getByRole("button", { name: "Join #platform" }).click();
    await page.getByRole("button", { name: "Leave #platform" }).waitFor();
    await page.getByRole("button", { name: "Leave #platform" }).click();
    await page.getByRole("button", { name: "Join #platform" }).waitFor();

    await owner.goto(`${server.url}/orgs/acme/settings`);
    const open = owner.locator("[data-testid=open-membership-form]");
    expect(await open.textContent()).toContain("Currently on");
    await open.locator("input[name=open]").uncheck();
    await open.locator("button[type=submit]").click();
    await expect(open.locator("[role=status]").textContent()).resolves.toContain("only their teams' projects");
    const org = await store.db.selectFrom("organizations").select("open_membership").where("id", "=", orgId).executeTakeFirstOrThrow();
    expect(org.open_membership).toBe(0);
    await shot(owner, "org-settings");

    // An admin (team:write) may still join; the project list follows the teams.
    await page.goto(`${server.url}/orgs/acme/teams`);
    expect(await page.getByRole("button", { name: "Join #platform" }).count()).toBe(1);
    const member = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(member, server.url, "mel@example.com", /\/orgs\/acme$/);
    await member.goto(`${server.url}/orgs/acme/teams`);
    expect(await member.getByRole("button", { name: "Join #acme" }).count()).toBe(0);
    expect(await member.getByRole("button", { name: "Leave #platform" }).count()).toBe(1);
    await member.close();
    await page.close();
  });

  it("renames the organization from its settings and moves there", async () => {
    await owner.goto(`${server.url}/orgs/acme/settings`);
    const form = owner.locator("[data-testid=org-form]");
    await form.locator("input[name=name]").fill("Acme Corp");
    await form.locator("input[name=slug]").fill("acme-corp");
    await form.locator("button[type=submit]").click();
    await owner.waitForURL(/\/orgs\/acme-corp\/settings$/);
    expect(await form.locator("input[name=name]").inputValue()).toBe("Acme Corp");
    await form.locator("input[name=slug]").fill("acme");
    await form.locator("button[type=submit]").click();
    await owner.waitForURL(/\/orgs\/acme\/settings$/);
  });

  it("assigns an issue to a team and shows the team in the stream", async () => {
    await owner.goto(`${server.url}/orgs/acme/issues`);
    await owner.locator("a", { hasText: "checkout failed" }).first().click();
    await owner.waitForURL(/\/orgs\/acme\/issues\/\d+/);
    const assign = owner.locator("[data-testid=assign-form]");
    await assign.locator("select[name=assignee]").selectOption({ label: "#platform" });
    await assign.getByRole("button", { name: "Assign" }).click();
    await expect
      .poll(async () => (await store.db.selectFrom("issues").select("assignee_team_id").executeTakeFirstOrThrow()).assignee_team_id)
      .not.toBeNull();
    await owner.reload();
    expect(await owner.locator("[data-testid=assignee] option:checked").textContent()).toBe("#platform");
    expect(await owner.locator("[data-testid=activity]").textContent()).toContain("Olive Owner assigned the issue to #platform");
    await shot(owner, "issue-assigned-team");
    await owner.goto(`${server.url}/orgs/acme/issues?query=${encodeURIComponent("assigned:#platform")}`);
    expect(await owner.locator(".issue-row").count()).toBe(1);
    expect(await owner.locator(".issue-row").first().textContent()).toContain("#platform");
    await shot(owner, "issues-assigned-team");
  });

  it("lists the project's teams on its Teams tab and gives it to another team and back", async () => {
    await owner.goto(`${server.url}/orgs/acme/projects/web/settings/teams`);
    const teams = owner.locator("[data-testid=project-teams] li");
    expect(await teams.allTextContents()).toEqual([expect.stringContaining("#acme"), expect.stringContaining("#platform")]);
    await owner.getByRole("button", { name: "Remove #platform from web" }).click();
    await expect.poll(() => teams.count()).toBe(1);
    const add = owner.locator("[data-testid=add-project-team-form]");
    await add.locator("select[name=team]").selectOption("platform");
    await add.locator("button[type=submit]").click();
    await expect.poll(() => teams.count()).toBe(2);
    // Its last team keeps it: the refusal shows under the button.
    await owner.goto(`${server.url}/orgs/acme/projects/scratch/settings/teams`);
    const last = owner.locator("[data-testid=project-teams] li").first();
    await last.getByRole("button").click();
    await expect(last.locator("[role=alert]").textContent()).resolves.toContain("has no other team");
    await shot(owner, "project-teams");
  });

  it("deletes a project only when its slug is typed, and deletes a team but not the default one", async () => {
    await owner.goto(`${server.url}/orgs/acme/projects/scratch/settings`);
    const form = owner.locator("[data-testid=delete-project-form]");
    await form.locator("input[name=confirm]").fill("web");
    await form.getByRole("button", { name: "Delete scratch" }).click();
    await expect(form.locator("[role=alert]").textContent()).resolves.toContain("type the project's slug, scratch");
    await shot(owner, "project-delete");
    await form.locator("input[name=confirm]").fill("scratch");
    await form.getByRole("button", { name: "Delete scratch" }).click();
    await owner.waitForURL(/\/orgs\/acme$/);
    expect(await store.db.selectFrom("projects").select("slug").where("slug", "=", "scratch").executeTakeFirst()).toBeUndefined();

    await owner.goto(`${server.url}/orgs/acme/teams/acme`);
    expect(await owner.locator("[data-testid=delete-team-form]").count()).toBe(0);
    await owner.goto(`${server.url}/orgs/acme/teams/platform`);
    await owner.locator("[data-testid=delete-team-form] button").click();
    await owner.waitForURL(/\/orgs\/acme\/teams$/);
    expect(await owner.locator("[data-testid=team-row]").count()).toBe(1);
  });

  it("lets a member leave the organization", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.url, "mel@example.com", /\/orgs\/acme$/);
    await page.goto(`${server.url}/orgs/acme/members`);
    await page.locator("[data-testid=leave-org-form] button").click();
    await page.waitForURL(/\/orgs$/);
    expect(await roleOf("mel")).toBeUndefined();
    expect((await page.goto(`${server.url}/orgs/acme/members`))?.status()).toBe(404);
    await page.close();
  });
});
