import Link from "next/link";
import { isTelltaleError } from "@/src/core/errors";
import { invitationByToken, isInvitedAddress, type InvitationView } from "@/src/core/orgs/invitations";
import { ROLE_INFO } from "@/src/core/orgs/roles";
import { currentUser } from "../../lib/auth";
import { ctx } from "../../lib/app-runtime";
import { AcceptForm, SignOutTo } from "./accept-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Invitation" };

/** Where an invitation email's link leads: join as the signed-in user, sign in first, or create the account. */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  let view: InvitationView;
  try {
    view = await invitationByToken(ctx(), token);
  } catch (error) {
    if (!isTelltaleError(error)) throw error;
    return (
      <main className="narrow">
        <h1>Invitation</h1>
        <p className="error" role="alert">
          {error.message.replace(/^./, (c) => c.toUpperCase())}.
        </p>
        <p>
          <Link href="/login">Sign in</Link>
        </p>
      </main>
    );
  }
  const { invitation, org, accountExists } = view;
  const user = await currentUser();
  const role = ROLE_INFO[invitation.role];
  return (
    <main className="narrow">
      <h1>Join {org.name}</h1>
      <p>
        You were invited to <strong>{org.name}</strong> on Telltale as {role.label.toLowerCase()}:{" "}
        {role.summary.replace(/^./, (c) => c.toLowerCase())}
      </p>
      {user && !isInvitedAddress(invitation, user.email) ? (
        // Only the invited address's account may join (decision 0040): say who is signed in and
        // offer to come back here signed out, to sign in as (or create) the invited account.
        <section data-testid="invitation-other-account">
          <p className="warning" role="alert">
            This invitation is for <strong>{invitation.email}</strong>, and you are signed in as <strong>{user.email}</strong>. Only{" "}
            {invitation.email} can accept it.
          </p>
          <SignOutTo next={`/invite/${token}`} label={`Sign out and continue as ${invitation.email}`} />
        </section>
      ) : user ? (
        <AcceptForm token={token} email={invitation.email} newAccount={false} />
      ) : accountExists ? (
        <p>
          An account for {invitation.email} exists.{" "}
          <Link href={`/login?next=${encodeURIComponent(`/invite/${token}`)}`} className="button primary">
            Sign in to accept
          </Link>
        </p>
      ) : (
        <AcceptForm token={token} email={invitation.email} newAccount />
      )}
    </main>
  );
}
