import { describe, expect, it } from "vitest";
import type { AttachmentSpool, SpoolFile } from "../../src/core/ports/attachment-spool";

async function readAll(file: SpoolFile, bytes: number): Promise<Buffer[]> {
  const pieces: Buffer[] = [];
  for await (const piece of file.read(bytes)) pieces.push(Buffer.from(piece));
  return pieces;
}

/** What accept's attachment writer (src/core/ingest/attachments.ts) relies on from a spool. */
export function attachmentSpoolContract(name: string, make: () => AttachmentSpool): void {
  describe(`${name}: attachment spool`, () => {
    it("gives back the bytes appended, in order, in pieces of at most the size asked, each file its own", async () => {
      const spool = make();
      const [a, b] = [await spool.create(), await spool.create()];
      try {
        await a.append(Buffer.from("hello "));
        await b.append(Buffer.from("other"));
        await a.append(Buffer.from("world"));
        const pieces = await readAll(a, 4);
        expect(pieces.map((p) => p.toString())).toEqual(["hell", "o wo", "rld"]);
        // Read again, whole: reading does not use the bytes up.
        expect(Buffer.concat(await readAll(a, 1 << 16)).toString()).toBe("hello world");
        expect(Buffer.concat(await readAll(b, 3)).toString()).toBe("other");
      } finally {
        await a.remove();
        await b.remove();
      }
    });

    it("reads nothing from an empty file, and removes a file more than once without complaint", async () => {
      const file = await make().create();
      expect(await readAll(file, 4)).toEqual([]);
      await file.remove();
      await expect(file.remove()).resolves.toBeUndefined();
    });
  });
}
