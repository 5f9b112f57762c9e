/**
 * @module Encrypted backups: AES-256-GCM under a key the operator keeps (a key file), so a backup
 * stored elsewhere does not hand out the secrets it holds, and one altered on the way is refused
 * rather than restored. The file is `marker`, a 12-byte nonce, the encrypted gzip'd backup, then
 * GCM's 16-byte tag; the marker is authenticated with the rest. A plain backup starts with
 * gzip's magic bytes, so the two are told apart by their first bytes.
 */
import { createCipheriv, createDecipheriv, randomBytes, type Cipher } from "node:crypto";
import { readFileSync } from "node:fs";

const marker = Buffer.from("quiver-encrypted-backup 1\n", "utf8");
const nonceBytes = 12;
const tagBytes = 16;

/** Where `quiver backup` and `quiver restore` read the key when no --encrypt-key-file is given. */
export const backupKeyFileEnv = "QUIVER_BACKUP_KEY_FILE";

/**
 * The 256-bit key in `file`: 64 hex digits or 44 base64 characters (what `openssl rand -hex 32`
 * or `openssl rand -base64 32` print), surrounding whitespace ignored. The key itself is never echoed.
 */
export function readBackupKey(file: string): Buffer {
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch (error) {
    throw new Error(`cannot read the key file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, "hex");
  const decoded = Buffer.from(text, "base64");
  if (decoded.length === 32 && decoded.toString("base64") === text) return decoded;
  throw new Error(`the key file ${file} must hold a 256-bit key: 64 hex digits or 44 base64 characters (make one with 'openssl rand -hex 32')`);
}

/** The key file named by `flag`, else by the environment, read; undefined when neither names one. */
export function backupKeyOf(flag: string | undefined, env: NodeJS.ProcessEnv): Buffer | undefined {
  const file = flag ?? (env[backupKeyFileEnv] || undefined);
  return file === undefined ? undefined : readBackupKey(file);
}

/**
 * A cipher for a new encrypted backup: write `head` first, then what `cipher` puts out, then
 * `tag()` once it has ended.
 */
export function backupCipher(key: Buffer): { head: Buffer; cipher: Cipher; tag: () => Buffer } {
  const nonce = randomBytes(nonceBytes);
  const cipher = createCipheriv("aes-256-gcm", key, nonce, { authTagLength: tagBytes });
  cipher.setAAD(marker);
  return { head: Buffer.concat([marker, nonce]), cipher, tag: () => cipher.getAuthTag() };
}

/** Whether `bytes`, the start of a backup file or all of it, are of an encrypted backup. */
export function isEncryptedBackup(bytes: Buffer): boolean {
  return bytes.subarray(0, marker.length).equals(marker);
}

/**
 * The gzip'd backup inside the encrypted backup `bytes` (from `file`). A wrong key and an altered
 * file fail GCM's check alike, and are refused with both named.
 */
export function decryptBackup(bytes: Buffer, key: Buffer, file: string): Buffer {
  if (bytes.length < marker.length + nonceBytes + tagBytes) throw new Error(`${file} is an encrypted backup cut short: the backup is incomplete`);
  const nonce = bytes.subarray(marker.length, marker.length + nonceBytes);
  const decipher = createDecipheriv("aes-256-gcm", key, nonce, { authTagLength: tagBytes });
  decipher.setAAD(marker);
  decipher.setAuthTag(bytes.subarray(bytes.length - tagBytes));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(marker.length + nonceBytes, bytes.length - tagBytes)), decipher.final()]);
  } catch {
    throw new Error(`${file} cannot be decrypted with the key given: the key is not the one it was written with, or the file was altered`);
  }
}
