/**
 * The database (or the file system under it) refused a write for lack of space: SQLite's
 * SQLITE_FULL, PostgreSQL's disk_full (SQLSTATE 53100), or ENOSPC from a write of our own.
 * Looks through `cause` too, since Kysely and our own code may wrap the driver's error.
 */
export function isStorageFull(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = codeOf(e);
    if (code === "SQLITE_FULL" || code === "53100" || code === "ENOSPC") return true;
  }
  return false;
}

function codeOf(error: Error): unknown {
  return "code" in error ? (error as { code?: unknown }).code : undefined;
}
