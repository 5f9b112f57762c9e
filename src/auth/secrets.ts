/**
 * @module Credential secrets: generation, salted hashing and timing-safe comparison.
 *
 * Secrets are 256 random bits, so a fast keyed hash (HMAC-SHA256 with a per-credential salt) is
 * as strong as a slow password hash here: nothing can be guessed, and brute force over 2^256 is
 * out of reach. scrypt would add ~50 ms to every request for no gain.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export interface HashedSecret {
  salt: string;
  secretHash: string;
}

/** A new random secret, base64url (43 characters). */
export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** A short random public identifier (lower-case hex). */
export function newPublicId(bytes = 8): string {
  return randomBytes(bytes).toString("hex");
}

function digest(salt: string, secret: string): Buffer {
  return createHmac("sha256", Buffer.from(salt, "base64url")).update(secret, "utf8").digest();
}

export function hashSecret(secret: string): HashedSecret {
  const salt = randomBytes(16).toString("base64url");
  return { salt, secretHash: digest(salt, secret).toString("base64url") };
}

/** Compares in constant time for a given stored hash length. */
export function secretMatches(secret: string, stored: HashedSecret): boolean {
  const expected = Buffer.from(stored.secretHash, "base64url");
  const actual = digest(stored.salt, secret);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
