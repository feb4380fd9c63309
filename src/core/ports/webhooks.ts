/**
 * The port alert webhooks leave through (decision 0018). Core builds and signs the request; the
 * transport (src/server/webhook-client.ts) resolves the host, refuses private addresses unless
 * allowed, connects to the address it checked, follows redirects the same way, and bounds the time.
 */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookResult {
  /** The final answer's HTTP status; null when none came (refused address, network error, time-out). */
  status: number | null;
  /** The start of the answer's body (at most RESPONSE_EXCERPT characters). */
  response: string | null;
  /** What went wrong, when no answer came. */
  error: string | null;
  /** The URL or a redirect pointed at an address that is refused: sending again will not help. */
  refused: boolean;
  durationMs: number;
}

export const RESPONSE_EXCERPT = 1000;

export interface WebhookPoster {
  post(request: WebhookRequest): Promise<WebhookResult>;
}
