import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PG_URL } from "../../test/support/stores";
import { copyRows } from "./queue-copy";

/**
 * The COPY is sent whole before the server has answered its command (src/db/queue-copy.ts).
 * When the command itself fails, the copy data after it must be ignored by the server and the
 * connection must stay in step: the error reaches the caller, and the connection keeps working.
 * (Writing rows, and a row refused mid-COPY, are tested through QueueWriter in
 * src/core/ingest/queue-writer.test.ts.)
 */
describe("copyIntoQueue when the COPY command fails (PostgreSQL)", () => {
  const schema = `queue_copy_${randomBytes(4).toString("hex")}`;
  let admin: pg.Client;
  let client: pg.Client;
  const row = { project_id: 1, key_id: 1, endpoint: "envelope" as const, received_at: 1, body: Buffer.from("{}\n") };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    // A schema without the queue table: the COPY command is refused before any data is read.
    await admin.query(`create schema ${schema}`);
    client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await admin?.query(`drop schema if exists ${schema} cascade`);
    await admin?.end();
  });

  it("rejects with the server's error, and the same connection's next queries work", async () => {
    await expect(copyRows(client, [row, row])).rejects.toThrow(/ingest_queue.*does not exist/);
    expect((await client.query<{ one: number }>("select 1 as one")).rows).toEqual([{ one: 1 }]);
    await expect(copyRows(client, [row])).rejects.toThrow(/does not exist/);
    // Once the table exists, the same connection copies into it.
    await client.query(
      "create table ingest_queue (id bigserial primary key, project_id integer not null, key_id integer not null, endpoint text not null, received_at bigint not null, body bytea not null)",
    );
    await copyRows(client, [row, { ...row, received_at: 2 }]);
    const stored = await client.query<{ received_at: string; body: Buffer }>("select received_at, body from ingest_queue order by id");
    expect(stored.rows.map((r) => [Number(r.received_at), r.body.toString()])).toEqual([
      [1, "{}\n"],
      [2, "{}\n"],
    ]);
  });
});
