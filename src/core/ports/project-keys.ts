/**
 * A project's DSN keys: listing, issuing, disabling, rotating and rate-limiting them, and
 * finding one by its public key for the request path. Implemented for both dialects by
 * src/db/project-key-store.ts.
 */
import type { ProjectKey } from "../projects/project";

/** Events per window; null for no per-key limit. */
export type KeyRateLimitValue = { count: number; windowSeconds: number } | null;

export interface NewKeyRecord {
  label: string;
  publicKey: string;
  secretKey: string;
  rateLimit: KeyRateLimitValue;
  now: number;
}

export interface ProjectKeyStore {
  /** The project's keys in creation order. */
  list(projectId: number): Promise<ProjectKey[]>;
  byPublicKey(publicKey: string): Promise<ProjectKey | null>;
  /** Issues an active key. */
  create(projectId: number, key: NewKeyRecord): Promise<ProjectKey>;
  /** False when the project has no such key. */
  setActive(projectId: number, keyId: number, active: boolean): Promise<boolean>;
  /**
   * In one transaction, disables the key and issues an active one with its label and rate
   * limit and this pair; null when the project has no such key.
   */
  rotate(projectId: number, keyId: number, pair: { publicKey: string; secretKey: string }, now: number): Promise<ProjectKey | null>;
  /** False when the project has no such key. */
  setRateLimit(projectId: number, keyId: number, limit: KeyRateLimitValue): Promise<boolean>;
}
