import { DEAD_LETTER_RETRY_DAYS } from "@/src/core/deadletters/expire";
import { listDeadLetters } from "@/src/core/deadletters/list";
import { loadOrg } from "../../../lib/loaders";
import { formatBytes } from "../../../lib/bytes";
import { ctx } from "../../../lib/app-runtime";
import { DeadLetterButtons } from "./dead-letter-buttons";
import { PageCrumbs } from "../../../components/shell/page-crumbs";
import { When } from "../../../components/when";

export const metadata = { title: "Dead letters" };

/**
 * Envelopes the digest set aside (docs/decisions/0006-dead-letters.md), for owners and admins:
 * what they held, why they failed, a scrubbed excerpt, and Retry / Delete.
 */
export default async function DeadLettersPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  // Members without the permission get the not-found page, as for any page they may not see.
  const { org } = await loadOrg("dead-letter:read", slug, `/orgs/${slug}/dead-letters`);
  const letters = await listDeadLetters({ ctx: ctx(), input: { organizationId: org.id } });
  return (
    <main>
      <PageCrumbs items={[{ label: org.name, href: `/orgs/${org.slug}` }, { label: "Dead letters" }]} />
      <h1>Dead letters</h1>
      <p className="muted">
        Envelopes the digest could not process or store. Each was counted as an invalid outcome and kept here so the rest of the queue could
        go on. Retry one after the cause is fixed, within {DEAD_LETTER_RETRY_DAYS} days: after that its envelope, which may hold secrets, is
        emptied and only the excerpt stays. Dead letters are deleted with events when retention runs.
      </p>
      {letters.length === 0 ? (
        <div className="panel">
          <p className="muted">No dead letters: every envelope received was stored, filtered or counted.</p>
        </div>
      ) : (
        letters.map((l) => (
          <section className="panel dead-letter" key={l.id} aria-label={`Dead letter ${l.id}`}>
            <div className="dead-letter-head">
              <div>
                <strong>{l.itemTypes.length > 0 ? l.itemTypes.join(", ") : "unparsed envelope"}</strong>{" "}
                <span className="badge">{l.projectSlug}</span> <span className="muted">{formatBytes(l.size)}</span>
                <p className="dead-letter-reason">{l.reason}</p>
                <p className="muted">
                  Set aside <When ms={l.createdAt} /> · received <When ms={l.receivedAt} />
                  {!l.retryable && " · envelope emptied, cannot be retried"}
                </p>
              </div>
              <DeadLetterButtons org={org.slug} id={l.id} retryable={l.retryable} />
            </div>
            <details>
              <summary>Excerpt: at most 4 KB of the body, secrets filtered</summary>
              <pre className="dead-letter-excerpt">{l.excerpt}</pre>
            </details>
          </section>
        ))
      )}
    </main>
  );
}
