import type { z } from "zod";
import { invalidInput } from "./errors";

/**
 * Validates input at the core's boundary. The message names the first problem in words a person
 * can act on; `details.fields` holds every field's first problem, so a form reports them all at once.
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join(".");
  const fields: Record<string, string> = {};
  for (const i of result.error.issues) {
    const name = i.path.join(".");
    if (name && !(name in fields)) fields[name] = i.message;
  }
  throw invalidInput(field ? `${field}: ${issue?.message}` : (issue?.message ?? "invalid input"), fields);
}
