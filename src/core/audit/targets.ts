/** How entries name what they touched; shared by server actions and API routes so both record the same target. */
export const orgTarget = (org: { id: number; slug: string }) => ({ type: "organization", id: org.id, label: org.slug });
export const memberTarget = (m: { userId: number; email: string }) => ({ type: "member", id: m.userId, label: m.email });
export const teamTarget = (t: { id: number; slug: string }) => ({ type: "team", id: t.id, label: `#${t.slug}` });
export const projectTarget = (p: { id: number; slug: string }) => ({ type: "project", id: p.id, label: p.slug });
export const keyTarget = (k: { id: number; label: string }) => ({ type: "projectkey", id: k.id, label: k.label });
export const ruleTarget = (r: { id: number | string; name: string }) => ({ type: "rule", id: r.id, label: r.name });
export const metricRuleTarget = (r: { id: number | string; name: string }) => ({ type: "alertrule", id: r.id, label: r.name });
export const issueTarget = (i: { id: number; shortId: string }) => ({ type: "issue", id: i.id, label: i.shortId });
