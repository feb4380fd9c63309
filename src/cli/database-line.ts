import { existsSync } from "node:fs";
import type { Database } from "../config/settings";

/**
 * The line the CLI writes to stderr before a command: which database it is about to use.
 * A relative TELLTALE_DATA_DIR resolves against the working directory, so a command run from
 * another directory would otherwise create and fill a new, empty database without a word.
 * A PostgreSQL URL is shown without its user and password.
 */
export function databaseLine(database: Database): string {
  if (database.kind === "sqlite") {
    return existsSync(database.file)
      ? `telltale: database ${database.file}`
      : `telltale: database ${database.file} (new: none there yet; set TELLTALE_DATA_DIR or DATABASE_URL to use another)`;
  }
  const url = new URL(database.url);
  return `telltale: database postgres://${url.host}${url.pathname}`;
}
