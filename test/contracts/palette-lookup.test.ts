import { createUser } from "../../src/core/accounts/create-user";
import { digestBatch } from "../../src/core/digest/batch";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { KyselyPaletteLookup } from "../../src/db/palette-lookup";
import { DIGEST_OPTIONS, queueEnvelope } from "../support/digest";
import { buildEnvelope, eventItem, newEventId, transactionPayload } from "../support/envelopes";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { paletteLookupContract, type PaletteOrg } from "./palette-lookup";

/** An organization with one project, an error event and a transaction, written by the digest. */
async function seed(store: TestStore, slug: string, project: { slug: string; name: string }, title: string): Promise<PaletteOrg> {
  const ctx = testCtx(store);
  const org = await createOrganization({ ctx, input: { slug, owner: "dev@example.com" } });
  const projectId = (await createProject({ ctx, input: { org: slug, ...project } })).project.id;
  const eventId = newEventId();
  const errorTraceId = newEventId();
  const trace = { contexts: { trace: { trace_id: errorTraceId, span_id: "0123456789abcdef" } } };
  await queueEnvelope(store, projectId, buildEnvelope({ event_id: eventId }, [eventItem(eventId, title, trace)]));
  const transaction = transactionPayload("checkout");
  const transactionTraceId: string = JSON.parse(transaction).contexts.trace.trace_id;
  await queueEnvelope(store, projectId, buildEnvelope({}, [{ type: "transaction", payload: transaction }]));
  while ((await digestBatch(ctx, DIGEST_OPTIONS)) > 0);
  const event = await store.db.selectFrom("events").select("issue_id").where("event_id", "=", eventId).executeTakeFirstOrThrow();
  return { orgId: org.id, projectId, eventId, issueId: event.issue_id ?? 0, title, errorTraceId, transactionTraceId };
}

for (const dialect of DIALECTS) {
  paletteLookupContract(`KyselyPaletteLookup on ${dialect}`, async () => {
    const store = await openTestStore(dialect, { digest: true });
    await createUser({ ctx: testCtx(store), input: { email: "dev@example.com", password: "password-123" } });
    const mine = await seed(store, "mine", { slug: "shop", name: "Web Shop" }, "payment declined by gateway");
    const other = await seed(store, "other", { slug: "secret", name: "Secret" }, "secret failure");
    return { store: new KyselyPaletteLookup(store.db, store.dialect), mine, other, cleanup: () => store.cleanup() };
  });
}
