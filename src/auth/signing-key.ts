/**
 * @module The HS256 secret that signs Quiver's own access tokens: generated once and kept in the
 * metadata store, so every process serving the catalog signs and checks with the same key.
 */
import { randomBytes } from "node:crypto";
import type { AuthStore } from "./auth-store.js";

const keyName = "access-tokens";
const minimumKeyBytes = 32;

/**
 * The signing key, created on first use. `proposed` (for instance a key an older release kept
 * in a file) becomes the key only when none is stored yet, so tokens it signed stay valid.
 */
export async function loadSigningKey(store: AuthStore, proposed?: Buffer): Promise<Buffer> {
  const candidate = proposed && proposed.length >= minimumKeyBytes ? proposed : randomBytes(minimumKeyBytes);
  const kept = await store.ensureSigningKey(keyName, candidate.toString("base64url"), Date.now());
  return Buffer.from(kept, "base64url");
}
