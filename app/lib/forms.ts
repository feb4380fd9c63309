/** What a form's server action hands back to the page: an error to show and the values to keep. */
export interface FormState {
  error?: string;
  notice?: string;
  values?: Record<string, string>;
}

export function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
