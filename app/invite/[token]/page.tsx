import Link from "next/link";
import { isTelltaleError } from "@/src/core/errors";
import { invitationByToken, type InvitationView } from "@/src/core/orgs/invitations";
import { ROLE_INFO } from "@/src/core/orgs/roles";
import { currentUser } from "../../lib/auth";
import { ctx } from "../../lib/app-runtime";
import { AcceptForm } from "./accept-form";

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
      {user ? (
        <>
          {user.email !== invitation.email && (
            <p className="notice">
              The invitation was sent to {invitation.email}; you are signed in as {user.email} and will join as that account.
            </p>
          )}
          <AcceptForm token={token} email={invitation.email} newAccount={false} />
        </>
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
