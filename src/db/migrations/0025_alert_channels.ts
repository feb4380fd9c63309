import { randomBytes } from "node:crypto";
import type { Migration } from "./helpers";

/**
 * Alert notifications beyond email (decision 0018): each row gets a `channel`
 * (`email`, `webhook`, `slack`, `discord`) and a `target` (the email address or the URL it goes
 * to); rows of the three web channels belong to no person (`user_id` 0, `email` empty). Each rule
 * gets the secret its webhooks are signed with; existing rules get one here. Each attempt records
 * the answer's HTTP status, an excerpt of its body and how long it took.
 */
export const m0025: Migration = {
  async up(db) {
    await db.schema
      .alterTable("alert_notifications")
      .addColumn("channel", "text", (c) => c.notNull().defaultTo("email"))
      .execute();
    await db.schema.alterTable("alert_notifications").addColumn("target", "text").execute();
    await db
      .updateTable("alert_notifications")
      .set((eb) => ({ target: eb.ref("email") }))
      .execute();
    await db.schema.alterTable("alert_rules").addColumn("secret", "text").execute();
    const rules = (await db.selectFrom("alert_rules").select("id").execute()) as { id: number }[];
    for (const r of rules)
      await db
        .updateTable("alert_rules")
        .set({ secret: randomBytes(32).toString("hex") })
        .where("id", "=", r.id)
        .execute();
    await db.schema.alterTable("alert_attempts").addColumn("status_code", "integer").execute();
    await db.schema.alterTable("alert_attempts").addColumn("response", "text").execute();
    await db.schema.alterTable("alert_attempts").addColumn("duration_ms", "integer").execute();
  },
};
