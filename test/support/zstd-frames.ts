// zstd-napi's low-level binding (a CommonJS module), as src/server/ingest/zstd-body.ts uses it.
import binding from "zstd-napi/binding.js";

/**
 * A zstd frame as a streaming encoder writes it: fed without ending first, the encoder does not
 * know the size, so the header names the window `windowLog` instead of the content size.
 */
export function zstdStreamed(data: Buffer, windowLog: number): Buffer {
  const cctx = new binding.CCtx();
  cctx.setParameter(binding.CParameter.compressionLevel, 1);
  cctx.setParameter(binding.CParameter.windowLog, windowLog);
  const out: Buffer[] = [];
  const call = (input: Buffer, end: boolean) => {
    const dst = Buffer.alloc(binding.cStreamOutSize());
    const [left, produced, consumed] = cctx.compressStream2(dst, input, end ? binding.EndDirective.end : binding.EndDirective.continue);
    out.push(dst.subarray(0, produced));
    return { left, consumed };
  };
  for (let rest = data; rest.length > 0;) rest = rest.subarray(call(rest, false).consumed);
  while (call(Buffer.alloc(0), true).left !== 0);
  return Buffer.concat(out);
}

/** Bytes that do not compress (a multiplicative hash), so a body is as long on the wire as it is. */
export function noise(n: number, seed = 1): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i + 4 <= n; i += 4) b.writeUInt32LE(Math.imul(i + seed, 2654435761) >>> 0, i);
  return b;
}
