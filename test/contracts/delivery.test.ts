import { afterAll, beforeAll, describe } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import type { NewNotification } from "../../src/core/ports/alerts";
import type { NewMetricNotification } from "../../src/core/ports/metric-alerts";
import { KyselyAlertDelivery } from "../../src/db/alert-delivery-store";
import { KyselyMetricAlertDelivery } from "../../src/db/metric-alert-delivery-store";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { deliveryQueueContract } from "./delivery";

describe.each(DIALECTS)("notification delivery on %s", (dialect) => {
  let store: TestStore;
  let organizationId = 0;
  let projectId = 0;
  // Both kinds share the database: each has its own tables, so neither sees the other's rows.
  const noCleanup = async () => {};

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: "owner@example.com", password: "password-123" } });
    organizationId = (await createOrganization({ ctx, input: { slug: "acme", owner: "owner@example.com" } })).id;
    projectId = (await createProject({ ctx, input: { org: "acme", slug: "p" } })).project.id;
  });
  afterAll(() => store.cleanup());

  deliveryQueueContract<NewNotification>("issue alerts", async () => ({
    queue: new KyselyAlertDelivery(store.db, dialect),
    // An email and a web channel in turn: the two ways a row holds its recipient.
    notification: (id, createdAt) => ({
      id,
      projectId,
      ruleId: 1,
      issueId: 2,
      changeSeq: 3,
      changeKind: "created",
      createdAt,
      ...(createdAt % 2 === 0
        ? { channel: "email", target: "a@example.com", userId: 7 }
        : { channel: "webhook", target: "https://hook.example.com/", userId: null }),
    }),
    cleanup: noCleanup,
  }));

  deliveryQueueContract<NewMetricNotification>("metric alerts", async () => ({
    queue: new KyselyMetricAlertDelivery(store.db, dialect),
    notification: (id, createdAt) => ({
      id,
      organizationId,
      ruleId: 1,
      kind: "critical",
      details: {
        ruleName: "errors",
        orgSlug: "acme",
        aggregate: "count()",
        timeWindow: 5,
        query: "",
        environment: null,
        projects: ["p"],
        thresholdType: "above",
        value: 12,
        threshold: 10,
        at: createdAt,
      },
      userId: 7,
      email: "a@example.com",
      createdAt,
    }),
    cleanup: noCleanup,
  }));
});
