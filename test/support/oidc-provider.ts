import { createServer, type Server } from "node:http";
import Provider, { type Configuration } from "oidc-provider";
import { freePort } from "./server";

/** Who signs in at the test provider: the login name typed on its page is the subject. */
export interface TestIdentity {
  email: string;
  email_verified: boolean;
  name: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** When set, the token endpoint's ID token is changed on its way out (its claims, not its signature). */
  tamper: boolean;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (`oidc-provider`, certified) in the test process, on 127.0.0.1 over
 * http (Telltale allows plain http only for loopback issuers). Its development login page
 * accepts any password; the login name picks an identity of `people`.
 */
export async function startOidcProvider(redirectUris: string[], people: Record<string, TestIdentity>): Promise<TestProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = "telltale";
  const clientSecret = "a client secret the provider shares with Telltale";
  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    cookies: { keys: ["test provider cookie key"] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, sub) {
      const person = people[sub];
      if (!person) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...person }) };
    },
  };
  const provider = new Provider(issuer, configuration);
  const state: TestProvider = {
    issuer,
    clientId,
    clientSecret,
    tamper: false,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  provider.use(async (ctx, next) => {
    await next();
    if (!state.tamper || ctx.path !== "/token" || typeof ctx.body !== "object" || ctx.body === null) return;
    const body = ctx.body as { id_token?: unknown };
    if (typeof body.id_token !== "string") return;
    const [header, payload, signature] = body.id_token.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>;
    body.id_token = [header, Buffer.from(JSON.stringify({ ...claims, sub: "someone-else" })).toString("base64url"), signature].join(".");
  });
  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return state;
}
