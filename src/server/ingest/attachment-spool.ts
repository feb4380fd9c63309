import { mkdtempSync, rmSync } from "node:fs";
import { open, rm, type FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AttachmentSpool, SpoolFile } from "../../core/ports/attachment-spool";

/**
 * Spool files in a directory of this process's own under the system's temporary directory
 * (TMPDIR), removed when the request is done and, with anything left behind, when the process
 * exits. A refused attachment costs a file that is deleted at once: its pages are the file
 * system's to reuse, not held in the database file until a vacuum.
 */
export function tempAttachmentSpool(): AttachmentSpool {
  return {
    async create() {
      const path = join(spoolDir(), `${next++}.part`);
      return fileSpool(path, await open(path, "w+", 0o600));
    },
  };
}

/** One directory per process, made at the first attachment: every runtime's spool files go there. */
let dir: string | null = null;
let next = 0;
function spoolDir(): string {
  if (dir !== null) return dir;
  const made = mkdtempSync(join(tmpdir(), "telltale-spool-"));
  process.once("exit", () => rmSync(made, { recursive: true, force: true }));
  dir = made;
  return made;
}

function fileSpool(path: string, handle: FileHandle): SpoolFile {
  let size = 0;
  let closed = false;
  return {
    async append(chunk) {
      await handle.write(chunk, 0, chunk.length, size);
      size += chunk.length;
    },
    async *read(bytes) {
      for (let at = 0; at < size; at += bytes) {
        const piece = Buffer.allocUnsafe(Math.min(bytes, size - at));
        const { bytesRead } = await handle.read(piece, 0, piece.length, at);
        yield piece.subarray(0, bytesRead);
      }
    },
    async remove() {
      if (closed) return;
      closed = true;
      await handle.close();
      await rm(path, { force: true });
    },
  };
}
