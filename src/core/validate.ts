import type { z } from "zod";
import { invalidInput } from "./errors";

/** Validates input at the core's boundary; the message names the first problem in words a person can act on. */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join(".");
  throw invalidInput(field ? `${field}: ${issue?.message}` : (issue?.message ?? "invalid input"));
}
