import { fingerprintRules, issueHashes } from "@/src/core/issues/grouping-rules";
import type { NormalizedEvent } from "@/src/core/normalize/types";
import { GroupingExplanation } from "@/app/components/issue/grouping";
import { ctx } from "@/app/lib/app-runtime";

/** Why the event landed in this issue: the project's fingerprint rules and the issue's hashes. */
export async function GroupingSection({
  event,
  config,
  projectId,
  issueId,
}: {
  event: NormalizedEvent;
  config: string;
  projectId: number;
  issueId: number;
}) {
  const [rules, hashes] = await Promise.all([fingerprintRules(ctx(), projectId), issueHashes(ctx(), issueId)]);
  return <GroupingExplanation event={event} config={config} rules={rules} issueHashes={hashes} />;
}
