/**
 * "Test this rule": the rule's actions fire once with the project's newest issue (the
 * issue of its newest event), whatever the rule's conditions, filters, `frequency` or switch say.
 * The notifications are ordinary rows (changeKind `test`, ids starting `test-`): the sender
 * delivers them within its next tick, with retries, and the Alerts page lists their attempts.
 */
import { randomUUID } from "node:crypto";
import type { Ctx } from "../context";
import { invalidInput } from "../errors";
import type { NewNotification } from "../ports/alerts";
import { notificationsOfRule } from "./consumer";
import { findRule } from "./manage-rules";

interface ProjectRef {
  id: number;
  organization_id: number;
  slug: string;
}

export async function testRule({ ctx, input }: { ctx: Ctx; input: { project: ProjectRef; ruleId: string } }): Promise<NewNotification[]> {
  const rule = await findRule(ctx, input.project, input.ruleId);
  const issueId = await ctx.alerts.newestIssue(input.project.id);
  const issue = issueId === null ? null : await ctx.alerts.issue(issueId);
  if (!issue) throw invalidInput(`project '${input.project.slug}' has no issue yet to test the rule with: send it an event first`);
  const at = ctx.now();
  const notes = await notificationsOfRule(ctx.alerts, rule, issue, { id: `test-${randomUUID()}`, seq: 0, kind: "test" }, at);
  await ctx.alerts.insertNotifications(notes);
  return notes;
}
