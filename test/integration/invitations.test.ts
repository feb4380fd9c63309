import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import type { OutgoingEmail } from "../../src/core/email/mailer";
import { organizationFor } from "../../src/core/orgs/access";
import { createOrganization } from "../../src/core/orgs/create-org";
import {
  acceptInvitation,
  acceptWithNewAccount,
  INVITATION_DAYS,
  invitationByToken,
  inviteMember,
  resendInvitation,
  revokeInvitation,
} from "../../src/core/orgs/invitations";
import { createTeam } from "../../src/core/teams/teams";
import { createToken } from "../../src/core/tokens/tokens";
import { startApiServer } from "../support/api-server";
import type { User } from "../../src/db/schema";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const tokenOf = (link: string) => link.split("/invite/")[1]!;

describe.each(DIALECTS)("invitations on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let now = Date.UTC(2026, 10, 25);
  const sent: OutgoingEmail[] = [];
  const users: Record<string, User> = {};
  const access = (who: string) => organizationFor(ctx, users[who]!, "acme");
  const inviter = (who: string) => ({ id: users[who]!.id, name: users[who]!.name, email: users[who]!.email });

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store, {
      now: () => now,
      mailer: { send: async (email) => (sent.push(email), { messageId: `<${sent.length}@telltale.test>` }) },
    });
    for (const who of ["olive", "mona", "ada", "erin"])
      users[who] = await createUser({
        ctx,
        input: { email: `${who}@example.com`, name: who === "olive" ? "Olive <b>" : "", password: "password-123" },
      });
    const org = await createOrganization({ ctx, input: { slug: "acme", name: "Acme & Co", owner: "olive@example.com" } });
    await ctx.directory.addMember(org.id, users.mona!.id, "manager", [], now);
    await ctx.directory.addMember(org.id, users.ada!.id, "admin", [], now);
    await createTeam({ ctx, input: { access: await access("olive"), creatorId: users.olive!.id, team: { slug: "web" } } });
  });
  afterAll(() => store.cleanup());

  it("emails a link that creates the account, joins the teams, and works once", async () => {
    const { link, emailed, invitation } = await inviteMember({
      ctx,
      input: {
        access: await access("olive"),
        inviter: inviter("olive"),
        invitation: { email: " New@Example.com ", role: "admin", teams: ["web"] },
      },
    });
    expect(emailed).toBe(true);
    expect(invitation).toMatchObject({ email: "new@example.com", role: "admin", expiresAt: now + INVITATION_DAYS * 86_400_000 });
    const mail = sent.at(-1)!;
    expect(mail.to).toBe("new@example.com");
    expect(mail.subject).toBe("Join Acme & Co on Telltale");
    expect(mail.text).toContain(link);
    // Names are the inviter's input: HTML-escaped in the HTML part.
    expect(mail.html).toContain("Olive &");
    expect(mail.html).not.toContain("Olive <b>");
    // The token is stored only as its hash.
    const row = await store.db.selectFrom("invitations").select("token_hash").executeTakeFirstOrThrow();
    expect(row.token_hash).not.toBe(tokenOf(link));
    expect(await invitationByToken(ctx, tokenOf(link))).toMatchObject({ org: { slug: "acme" }, accountExists: false });
    const { orgSlug, email } = await acceptWithNewAccount({ ctx, input: { token: tokenOf(link), name: "Newt", password: "password-456" } });
    expect([orgSlug, email]).toEqual(["acme", "new@example.com"]);
    const member = (await ctx.directory.members(invitation.organizationId)).find((m) => m.email === "new@example.com");
    expect(member).toMatchObject({ role: "admin", name: "Newt", teams: ["web"] });
    await expect(invitationByToken(ctx, tokenOf(link))).rejects.toMatchObject({ code: "not_found" });
  });

  it("lets an existing account join by the link, and never takes it over", async () => {
    const { link } = await inviteMember({
      ctx,
      input: { access: await access("mona"), inviter: inviter("mona"), invitation: { email: "erin@example.com", role: "member" } },
    });
    expect((await invitationByToken(ctx, tokenOf(link))).accountExists).toBe(true);
    await expect(
      acceptWithNewAccount({ ctx, input: { token: tokenOf(link), name: "Mallory", password: "password-789" } }),
    ).rejects.toMatchObject({
      code: "conflict",
    });
    await acceptInvitation({ ctx, input: { token: tokenOf(link), user: users.erin! } });
    expect((await access("erin")).role).toBe("member");
  });

  it("lets only the invited address's account accept: another signed-in account is refused and gains nothing", async () => {
    const { link } = await inviteMember({
      ctx,
      input: { access: await access("olive"), inviter: inviter("olive"), invitation: { email: "fern@example.com", role: "admin" } },
    });
    const mallory = await createUser({ ctx, input: { email: "mallory@example.com", password: "password-123" } });
    await expect(acceptInvitation({ ctx, input: { token: tokenOf(link), user: mallory } })).rejects.toMatchObject({
      code: "forbidden",
      message: expect.stringContaining("fern@example.com") as string,
    });
    await expect(organizationFor(ctx, mallory, "acme")).rejects.toMatchObject({ code: "not_found" });
    // The link still works for the address it was sent to (addresses compare without case).
    const fern = await createUser({ ctx, input: { email: "Fern@Example.com", password: "password-123" } });
    await acceptInvitation({ ctx, input: { token: tokenOf(link), user: fern } });
    expect((await organizationFor(ctx, fern, "acme")).role).toBe("admin");
  });

  it("refuses to invite a member, above one's own role, or into a missing team", async () => {
    const mona = await access("mona");
    await expect(
      inviteMember({ ctx, input: { access: mona, inviter: inviter("mona"), invitation: { email: "ada@example.com", role: "member" } } }),
    ).rejects.toMatchObject({ code: "conflict" });
    await expect(
      inviteMember({ ctx, input: { access: mona, inviter: inviter("mona"), invitation: { email: "boss@example.com", role: "owner" } } }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      inviteMember({
        ctx,
        input: { access: mona, inviter: inviter("mona"), invitation: { email: "x@example.com", role: "member", teams: ["nope"] } },
      }),
    ).rejects.toMatchObject({ code: "invalid_input" });
    await expect(
      inviteMember({ ctx, input: { access: mona, inviter: inviter("mona"), invitation: { email: "x@example.com", role: "chief" } } }),
    ).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("expires links, and a resend replaces the old link; a revoked invitation's link stops working", async () => {
    const olive = await access("olive");
    const first = await inviteMember({
      ctx,
      input: { access: olive, inviter: inviter("olive"), invitation: { email: "late@example.com", role: "member" } },
    });
    now += INVITATION_DAYS * 86_400_000;
    await expect(invitationByToken(ctx, tokenOf(first.link))).rejects.toThrow(/expired/);
    const again = await resendInvitation({ ctx, input: { access: olive, inviter: inviter("olive"), id: first.invitation.id } });
    await expect(invitationByToken(ctx, tokenOf(first.link))).rejects.toMatchObject({ code: "not_found" });
    expect((await invitationByToken(ctx, tokenOf(again.link))).invitation.email).toBe("late@example.com");
    await revokeInvitation(ctx, olive, again.invitation.id);
    await expect(invitationByToken(ctx, tokenOf(again.link))).rejects.toMatchObject({ code: "not_found" });
    expect(await ctx.directory.invitations(olive.org.id)).toEqual([]);
  });

  it("shows the link instead of emailing it when SMTP is not set up", async () => {
    const plain = { ...ctx, mailer: null };
    const before = sent.length;
    const { emailed, link } = await inviteMember({
      ctx: plain,
      input: { access: await access("olive"), inviter: inviter("olive"), invitation: { email: "copy@example.com", role: "member" } },
    });
    expect([emailed, sent.length]).toEqual([false, before]);
    expect(link).toMatch(/^http:\/\/telltale\.test:8000\/invite\/[\w-]{43}$/);
  });

  it("invites through Sentry's POST /organizations/{org}/members/, answering 201 with the pending member", async () => {
    const api = await startApiServer(ctx);
    try {
      const post = async (who: string, body: unknown) => {
        const { token } = await createToken({ ctx, input: { user: `${who}@example.com` } });
        const response = await fetch(`${api.base}/api/0/organizations/acme/members/`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const created = await post("mona", { email: "api@example.com", orgRole: "admin", teamRoles: [{ teamSlug: "web", role: null }] });
      expect(created).toMatchObject({
        status: 201,
        body: { email: "api@example.com", orgRole: "admin", pending: true, expired: false, teams: ["web"], user: null },
      });
      expect(sent.at(-1)?.to).toBe("api@example.com");
      // An admin may not invite (member:invite is for managers and owners); a manager not above their role.
      expect((await post("ada", { email: "nope@example.com", orgRole: "member" })).status).toBe(403);
      expect((await post("mona", { email: "boss@example.com", orgRole: "owner" })).status).toBe(403);
      expect((await post("mona", { email: "not-an-email", orgRole: "member" })).status).toBe(400);
    } finally {
      await api.close();
    }
  });
});
