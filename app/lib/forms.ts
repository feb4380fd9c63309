import type { ErrorCode } from "@/src/core/errors";

/**
 * What a form's server action hands back to the page: an error to show (with its code, so a
 * refusal can be told from a typo) or a notice, the values to keep, and per-field messages.
 */
export interface FormState {
  error?: string;
  code?: ErrorCode;
  notice?: string;
  values?: Record<string, string>;
  /** Each invalid field's message, shown beside the field. */
  fieldErrors?: Record<string, string>;
  /** Secrets shown once and kept nowhere (new two-factor recovery codes). */
  shown?: string[];
}

export function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
