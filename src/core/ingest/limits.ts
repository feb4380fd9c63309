/**
 * Byte limits on the ingest path (Relay's `limits` defaults for reference: envelope 100 MiB
 * decompressed, request 100 MiB; docs/protocol.md#size-limits). Until attachments stream to storage the
 * whole body is held in memory, so the envelope limit is smaller than Relay's.
 */
export const INGEST_LIMITS = {
  /** Compressed bytes read from the socket. */
  maxRequestBytes: 20 * 1024 * 1024,
  /** Bytes after decompression: cuts a decompression bomb off. */
  maxEnvelopeBytes: 20 * 1024 * 1024,
  /** A `/store/` body is one event (Relay: max_event_size 1 MiB). */
  maxStoreBytes: 1024 * 1024,
} as const;
