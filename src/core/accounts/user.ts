/**
 * A user as pages, the API and the audit log see them. The password hash is not part of it: only
 * the sign-in path reads it, through `AccountStore.credentials`.
 */
export interface User {
  id: number;
  email: string;
  name: string;
  /** 1 for a superuser, 0 otherwise (a flag, as stored on both databases). */
  is_superuser: number;
  created_at: number;
}
