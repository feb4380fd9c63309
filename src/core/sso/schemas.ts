import { z } from "zod";

/** The organization settings form for its OpenID provider . */
export const SsoProviderInput = z.object({
  issuer: z.string().trim().min(1, "enter the provider's issuer URL").max(512, "at most 512 characters"),
  clientId: z.string().trim().min(1, "enter the client id the provider gave").max(512, "at most 512 characters"),
  /** Empty keeps the stored secret (the form never shows it). */
  clientSecret: z.string().trim().max(1024, "at most 1024 characters"),
  /** New members join with this role; never owner: an identity provider does not make owners. */
  defaultRole: z.enum(["member", "admin", "manager"], { error: "choose member, admin or manager" }),
  /** A team's slug, or empty for the organization's default team. */
  defaultTeam: z.string().trim().max(64),
});
export type SsoProviderInput = z.infer<typeof SsoProviderInput>;
