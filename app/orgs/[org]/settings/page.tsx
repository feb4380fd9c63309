import Link from "next/link";
import { roleAllows } from "@/src/core/permissions/table";
import { setOpenMembershipAction, updateOrganizationAction } from "../../../actions/members";
import { setTwoFactorRequiredAction } from "../../../actions/two-factor";
import { ActionForm } from "../../../components/action-form";
import { LocalhostLinksWarning } from "../../../components/email-warnings";
import { PageCrumbs } from "../../../components/shell/page-crumbs";
import { loadOrg } from "../../../lib/loaders";
import "../access.css";

export const metadata = { title: "Organization settings" };

/** The organization's name, slug and open membership, for those with org:write. */
export default async function OrganizationSettingsPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { org, role } = await loadOrg("org:write", slug, `/orgs/${slug}/settings`);
  const open = org.open_membership === 1;
  const require2fa = org.require_2fa === 1;
  return (
    <main>
      <PageCrumbs items={[{ label: org.name, href: `/orgs/${org.slug}` }, { label: "Settings" }]} />
      <h1>Organization settings</h1>
      <LocalhostLinksWarning />
      <section className="panel">
        <h2 className="panel-title">General</h2>
        <ActionForm
          action={updateOrganizationAction}
          hidden={{ org: org.slug }}
          submit="Save"
          className="stack-form"
          testId="org-form"
          fields={[
            { name: "name", label: "Name", defaultValue: org.name, required: true },
            {
              name: "slug",
              label: "Slug",
              defaultValue: org.slug,
              required: true,
              maxLength: 50,
              hint: "Used in page addresses, API paths and sentry-cli's --org: changing it changes them all.",
            },
          ]}
        />
      </section>
      <section className="panel">
        <h2 className="panel-title">Open membership</h2>
        <ActionForm
          action={setOpenMembershipAction}
          hidden={{ org: org.slug }}
          submit="Save"
          className="stack-form"
          testId="open-membership-form"
        >
          <label className="switch-row">
            <input type="checkbox" name="open" value="1" defaultChecked={open} />
            <span>
              Members see every project and may join any team.
              <span className="muted-small" style={{ display: "block" }}>
                When off, members and admins see only the projects of their teams and join a team only when a team admin adds them; owners
                and managers still see everything. Currently {open ? "on" : "off"}.
              </span>
            </span>
          </label>
        </ActionForm>
      </section>
      <section className="panel">
        <h2 className="panel-title">Two-factor sign-in</h2>
        <ActionForm
          action={setTwoFactorRequiredAction}
          hidden={{ org: org.slug }}
          submit="Save"
          className="stack-form"
          testId="require-2fa-form"
        >
          <label className="switch-row">
            <input type="checkbox" name="required" value="1" defaultChecked={require2fa} />
            <span>
              Require two-factor sign-in of every member.
              <span className="muted-small" style={{ display: "block" }}>
                Members without it are sent to set it up before they can see anything here; you need it on your own account first. Currently{" "}
                {require2fa ? "required" : "not required"}.
              </span>
            </span>
          </label>
        </ActionForm>
      </section>
      {roleAllows(role, "sso:write") && (
        <section className="panel">
          <h2 className="panel-title">Single sign-on</h2>
          <p className="muted">Let members sign in through your OpenID Connect identity provider, and require it.</p>
          <Link href={`/orgs/${org.slug}/settings/sso`}>Set up single sign-on</Link>
        </section>
      )}
    </main>
  );
}
