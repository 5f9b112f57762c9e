/**
 * @module The check of `--event-webhook-secret`, apart from delivery: option parsing runs in
 * `serve`'s relaying process too, which must not load the store and delivery code to check one flag.
 */
import { createRequire } from "node:module";

/**
 * Checks a secret as `standardwebhooks` reads it; throws a message naming the flag otherwise. The
 * package is required here, when a secret is given, since option parsing is synchronous: a server
 * without webhooks never loads it.
 */
export function checkWebhookSecret(secret: string): void {
  const { Webhook } = createRequire(import.meta.url)("standardwebhooks") as typeof import("standardwebhooks");
  try {
    new Webhook(secret);
  } catch {
    throw new Error("--event-webhook-secret must be a Standard Webhooks secret: whsec_ followed by base64 (e.g. whsec_$(openssl rand -base64 32))");
  }
}
