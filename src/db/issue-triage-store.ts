import type { Kysely } from "kysely";
import type { Issue } from "../core/issues/issue";
import type { NewIssueChange } from "../core/outbox/changes";
import type { IssueSelection, IssueTriage, MergePlan, TriageReads, TriageStep, UnmergeOutcome, Unmerged } from "../core/ports/issue-triage";
import { writeIssueChanges } from "./issue-changes";
import { deleteIssueRows } from "./issue-delete";
import { mergeInto } from "./issue-merge";
import { moveMergedBack } from "./issue-unmerge";
import type { KyselyReleaseOrder } from "./release-order";
import type { DB } from "./schema";

/**
 * A person's actions on issues over the main database (src/core/ports/issue-triage.ts): each
 * one transaction, whose release order reads through it with the shared cache.
 */
export class KyselyIssueTriage implements IssueTriage {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly releaseOrder: KyselyReleaseOrder,
  ) {}

  change(selection: IssueSelection, step: (issue: Issue, reads: TriageReads) => Promise<TriageStep>): Promise<Issue[] | null> {
    return this.db.transaction().execute(async (trx) => {
      const issues = await selectIssues(trx, selection).execute();
      if (issues.length !== new Set(selection.issueIds).size) return null;
      const reads = triageReads(trx, this.releaseOrder.within(trx));
      const changes: NewIssueChange[] = [];
      for (const issue of issues) {
        const s = await step(issue, reads);
        if (s.kind === "bookmark") await setBookmark(trx, issue.id, s.userId, s.on);
        else {
          if (Object.keys(s.set).length > 0) await trx.updateTable("issues").set(s.set).where("id", "=", issue.id).execute();
          if (s.change) changes.push(s.change);
        }
      }
      await writeIssueChanges(trx, changes);
      return trx.selectFrom("issues").selectAll().where("id", "in", selection.issueIds).execute();
    });
  }

  merge(selection: IssueSelection, plan: (issues: readonly [Issue, ...Issue[]], projectSlug: string) => MergePlan): Promise<Issue | null> {
    return this.db.transaction().execute(async (trx) => {
      const issues = await selectIssues(trx, selection).orderBy("first_seen").orderBy("id").execute();
      const [first, ...rest] = issues;
      if (!first || issues.length !== new Set(selection.issueIds).size) return null;
      const { into, changes } = plan([first, ...rest], await projectSlug(trx, first.project_id));
      await mergeInto(
        trx,
        into,
        issues.filter((i) => i.id !== into.id),
        issues,
      );
      await writeIssueChanges(trx, changes);
      return trx.selectFrom("issues").selectAll().where("id", "=", into.id).executeTakeFirstOrThrow();
    });
  }

  delete(selection: IssueSelection): Promise<Issue[]> {
    return this.db
      .transaction()
      .execute(async (trx) =>
        deleteIssueRows(trx, await selectIssues(trx, selection).where("merged_into_id", "is", null).orderBy("id").execute()),
      );
  }

  unmerge(
    selection: { projectIds: readonly number[]; issueId: number },
    changes: (unmerged: Unmerged) => readonly NewIssueChange[],
  ): Promise<UnmergeOutcome> {
    return this.db.transaction().execute(async (trx): Promise<UnmergeOutcome> => {
      const issue = await selectIssues(trx, { projectIds: selection.projectIds, issueIds: [selection.issueId] }).executeTakeFirst();
      if (!issue) return { kind: "not found" };
      if (issue.merged_into_id === null) return { kind: "not merged" };
      const target = await trx.selectFrom("issues").selectAll().where("id", "=", issue.merged_into_id).executeTakeFirstOrThrow();
      const moved = await moveMergedBack(trx, issue, target);
      if (moved.hashes === 0) return { kind: "not recorded" };
      await writeIssueChanges(trx, changes({ issue, target, projectSlug: await projectSlug(trx, issue.project_id), events: moved.events }));
      const [after, targetAfter] = await Promise.all([
        trx.selectFrom("issues").selectAll().where("id", "=", issue.id).executeTakeFirstOrThrow(),
        trx.selectFrom("issues").selectAll().where("id", "=", target.id).executeTakeFirstOrThrow(),
      ]);
      return { kind: "unmerged", issue: after, target: targetAfter, events: moved.events };
    });
  }
}

/** The selected issues that belong to the selection's projects. */
function selectIssues(trx: Kysely<DB>, selection: IssueSelection) {
  return trx
    .selectFrom("issues")
    .selectAll()
    .where("id", "in", selection.issueIds.length ? selection.issueIds : [-1])
    .where("project_id", "in", selection.projectIds.length ? selection.projectIds : [-1]);
}

async function projectSlug(trx: Kysely<DB>, projectId: number): Promise<string> {
  return (await trx.selectFrom("projects").select("slug").where("id", "=", projectId).executeTakeFirstOrThrow()).slug;
}

async function setBookmark(trx: Kysely<DB>, issueId: number, userId: number, on: boolean): Promise<void> {
  if (on)
    await trx
      .insertInto("issue_bookmarks")
      .values({ issue_id: issueId, user_id: userId })
      .onConflict((oc) => oc.columns(["issue_id", "user_id"]).doNothing())
      .execute();
  else await trx.deleteFrom("issue_bookmarks").where("issue_id", "=", issueId).where("user_id", "=", userId).execute();
}

function triageReads(trx: Kysely<DB>, releaseOrder: KyselyReleaseOrder): TriageReads {
  return {
    releaseOrder,
    async isMember(projectId, userId) {
      const member = await trx
        .selectFrom("memberships")
        .innerJoin("projects", "projects.organization_id", "memberships.organization_id")
        .select("memberships.user_id")
        .where("projects.id", "=", projectId)
        .where("memberships.user_id", "=", userId)
        .executeTakeFirst();
      return member !== undefined;
    },
    async teamSlug(projectId, teamId) {
      const team = await trx
        .selectFrom("teams")
        .innerJoin("projects", "projects.organization_id", "teams.organization_id")
        .select("teams.slug")
        .where("projects.id", "=", projectId)
        .where("teams.id", "=", teamId)
        .executeTakeFirst();
      return team?.slug ?? null;
    },
  };
}
