/**
 * @module The HS256 secret that signs Quiver's own access tokens: generated once, kept under
 * the root (`auth/token-signing.key`, owner-only), shared by every process using that root.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const signingKeyFile = path.join("auth", "token-signing.key");

export function loadSigningKey(root: string): Buffer {
  const file = path.join(root, signingKeyFile);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    // "wx": when two processes start at once, exactly one creates the file and both read it.
    writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const key = Buffer.from(readFileSync(file, "utf8").trim(), "base64url");
  if (key.length < 32) throw new Error(`${file} holds fewer than 32 bytes; delete it to generate a new one`);
  return key;
}
