import Link from "next/link";
import { listUsers } from "@/src/core/accounts/manage-users";
import { When } from "../../components/when";
import { ctx } from "../../lib/app-runtime";
import { loadSuperuser } from "../../lib/loaders";
import { NewUserForm, UserActions } from "./user-forms";

export const dynamic = "force-dynamic";
export const metadata = { title: "Users" };

/** Server administration: every user of this Telltale. Superusers only; others get not-found. */
export default async function UsersPage() {
  const me = await loadSuperuser("user:admin", "/admin/users");
  const users = await listUsers(ctx(), me);
  const emailOn = ctx().mailer !== null;
  return (
    <main>
      <h1>Users</h1>
      <div className="panel">
        <table data-testid="users" className="account-table stack-narrow">
          <thead>
            <tr>
              <th>User</th>
              <th className="narrow-hide">Organizations</th>
              <th className="narrow-hide">Created</th>
              <th>Last active</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id} data-testid="user-row" data-email={u.email}>
                <td>
                  {u.email} {u.superuser && <span className="badge">superuser</span>}
                  {u.name && <div className="muted">{u.name}</div>}
                </td>
                <td className="narrow-hide">
                  {u.organizations.length === 0 ? (
                    <span className="muted">none</span>
                  ) : (
                    u.organizations.map((o, i) => (
                      <span key={o.slug}>
                        {i > 0 && ", "}
                        <Link href={`/orgs/${o.slug}`}>{o.name}</Link> <span className="muted">{o.role}</span>
                      </span>
                    ))
                  )}
                </td>
                <td className="narrow-hide" data-label="Created">
                  <When ms={u.createdAt} />
                </td>
                <td data-label="Last active">
                  {u.lastActiveAt === null ? <span className="muted">never</span> : <When ms={u.lastActiveAt} />}
                </td>
                <td>
                  <UserActions userId={u.id} email={u.email} superuser={u.superuser} self={u.id === me.id} emailOn={emailOn} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>Create a user</h2>
      <div className="panel">
        <NewUserForm />
      </div>
    </main>
  );
}
