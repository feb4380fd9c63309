import { crc32, deflateRawSync } from "node:zlib";

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** An uncompressed size to declare instead of the real one (a lying header). */
  declaredSize?: number;
}

/**
 * A minimal zip writer (deflate, no data descriptors) for hostile test bundles: names and sizes
 * as given, so a test can write `../` paths or headers that lie. `prefix` comes before the zip
 * and counts in its offsets, as in sentry-cli's `SYSB` source bundles.
 */
export function makeZip(entries: readonly ZipEntry[], prefix: Buffer = Buffer.alloc(0)): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = prefix.length;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const packed = deflateRawSync(e.data);
    const crc = crc32(e.data);
    const size = e.declaredSize ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(0x00210000, 10);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0x00210000, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([prefix, ...locals, dir, end]);
}

/** sentry-cli's source-bundle header: `SYSB` and version 2 (test/fixtures/sourcemaps/README.md). */
export const SOURCE_BUNDLE_HEADER = Buffer.from([0x53, 0x59, 0x53, 0x42, 2, 0, 0, 0]);

/** A bundle with a manifest naming each file (as `~/<name>`, a minified source). */
export function makeBundle(files: Record<string, Buffer | string>, manifestExtra: Record<string, unknown> = {}): Buffer {
  const manifest = {
    files: Object.fromEntries(Object.keys(files).map((n) => [`files/_/_/${n}`, { type: "minified_source", url: `~/${n}` }])),
    debug_id: "11111111-2222-3333-4444-555555555555",
    ...manifestExtra,
  };
  return makeZip(
    [
      ...Object.entries(files).map(([n, d]) => ({ name: `files/_/_/${n}`, data: Buffer.from(d) })),
      { name: "manifest.json", data: Buffer.from(JSON.stringify(manifest)) },
    ],
    SOURCE_BUNDLE_HEADER,
  );
}
