import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { databaseLine } from "./database-line";

describe("databaseLine", () => {
  const dir = mkdtempSync(join(tmpdir(), "telltale-dbline-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names an existing SQLite file by its absolute path", () => {
    const file = join(dir, "telltale.sqlite");
    writeFileSync(file, "");
    expect(databaseLine({ kind: "sqlite", file })).toBe(`telltale: database ${file}`);
  });

  it("says when the SQLite file does not exist yet and how to point elsewhere", () => {
    const file = join(dir, "absent", "telltale.sqlite");
    expect(databaseLine({ kind: "sqlite", file })).toBe(
      `telltale: database ${file} (new: none there yet; set TELLTALE_DATA_DIR or DATABASE_URL to use another)`,
    );
  });

  it("shows a PostgreSQL URL without its credentials", () => {
    const line = databaseLine({ kind: "postgres", url: "postgres://telltale:s3cret@db.internal:5432/telltale", poolMax: 10 });
    expect(line).toBe("telltale: database postgres://db.internal:5432/telltale");
  });
});
