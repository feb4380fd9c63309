import type { Ctx } from "../context";
import type { RenderedEmail } from "../email/templates";
import { workflowEmail, type WorkflowEmailInput } from "../email/workflow-templates";
import { shortId } from "../issues/queries";
import type { AlertEmailFacts, NotificationRecord } from "../ports/alerts";

/**
 * The email of a workflow notification (./consumer.ts), composed when it is sent, as issue
 * alerts are: the issue as it is then, the change (who, what they wrote) as it was made.
 */
export async function workflowEmailFor(ctx: Ctx, n: NotificationRecord, facts: AlertEmailFacts): Promise<RenderedEmail> {
  const change = await ctx.userNotifications.change(n.changeSeq);
  const base = ctx.publicUrl.replace(/\/$/, "");
  return workflowEmail({
    kind: n.changeKind as WorkflowEmailInput["kind"],
    data: change?.data ?? {},
    actor: change ? change.actorName || change.actorEmail || "Someone" : null,
    projectSlug: facts.projectSlug,
    orgSlug: facts.orgSlug,
    shortId: shortId({ slug: facts.projectSlug }, { short_number: facts.shortNumber }),
    title: facts.title,
    culprit: facts.culprit,
    level: facts.level,
    timesSeen: facts.timesSeen,
    lastSeen: facts.lastSeen,
    url: `${base}/orgs/${encodeURIComponent(facts.orgSlug)}/issues/${facts.issueId}/`,
    preferencesUrl: `${base}/account#notifications`,
  });
}
