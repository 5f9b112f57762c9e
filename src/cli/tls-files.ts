/**
 * @module The certificate and key `quiver serve` answers HTTPS with (`--tls-cert`, `--tls-key`):
 * read and checked as a pair before serving, so a missing file, a file that is no PEM, or a key
 * that does not belong to the certificate stops the server with a message naming the file. Read
 * again on SIGHUP: a renewed pair serves every connection opened after it, while a pair that does
 * not check leaves the one in use serving.
 */
import { readFileSync } from "node:fs";
import { createSecureContext } from "node:tls";

/** Where the PEM certificate chain and its private key are. */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** A checked certificate chain and key, as the TLS server takes them. */
export interface TlsCredentials {
  cert: Buffer;
  key: Buffer;
}

/** The server a renewed pair is handed to: Node's TLS servers (HTTP/2 included) have this. */
export interface SecureContextHolder {
  setSecureContext(options: TlsCredentials): void;
}

/** Reads both files and checks that they make a usable pair; throws naming the file at fault. */
export function readTlsFiles(files: TlsFiles): TlsCredentials {
  const credentials = { cert: readPem(files.certFile, "certificate"), key: readPem(files.keyFile, "key") };
  try {
    createSecureContext(credentials);
  } catch (error) {
    throw new Error(`the TLS certificate ${files.certFile} and key ${files.keyFile} are not a usable pair: ${reasonOf(error)}`);
  }
  return credentials;
}

/** Reads the files again and serves new connections with them; throws, leaving the pair in use, if they do not check. */
export function reloadTlsFiles(server: SecureContextHolder, files: TlsFiles): void {
  server.setSecureContext(readTlsFiles(files));
}

function readPem(file: string, what: string): Buffer {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new Error(`cannot read the TLS ${what} file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  // OpenSSL's own message for a file without PEM blocks is a bare decoder error.
  if (!bytes.includes("-----BEGIN ")) throw new Error(`the TLS ${what} file ${file} holds no PEM block`);
  return bytes;
}

/** OpenSSL's reason, without the library and function names around it. */
function reasonOf(error: unknown): string {
  const reason = (error as { reason?: string }).reason;
  return reason ?? (error as Error).message;
}
