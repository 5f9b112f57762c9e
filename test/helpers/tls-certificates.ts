/**
 * A throwaway certificate authority and the server certificates it signs, made with the `openssl`
 * command (Node has no certificate creation). Server certificates name 127.0.0.1 and localhost,
 * and are no CA themselves, which strict verifiers (rustls, used by the LanceDB client) require.
 */
import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface IssuedCertificate {
  certFile: string;
  keyFile: string;
  cert: string;
  /** SHA-256 fingerprint as Node's `getPeerCertificate().fingerprint256` shows it. */
  fingerprint: string;
}

export interface TestAuthority {
  dir: string;
  caFile: string;
  /** The CA certificate's PEM, to trust. */
  ca: string;
  /** A fresh key and server certificate signed by the CA, in files named after `name`. */
  issue(name: string): IssuedCertificate;
  remove(): void;
}

function openssl(args: string[], cwd: string): void {
  execFileSync("openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
}

const ecKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

export function makeTestAuthority(): TestAuthority {
  const dir = mkdtempSync(path.join(os.tmpdir(), "quiver-tls-"));
  openssl(["req", "-x509", ...ecKey, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Quiver test CA"], dir);
  writeFileSync(
    path.join(dir, "server.ext"),
    "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n",
  );
  const caFile = path.join(dir, "ca.pem");
  let serial = 1;
  return {
    dir,
    caFile,
    ca: readFileSync(caFile, "utf8"),
    issue(name) {
      openssl(["req", ...ecKey, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${name}`], dir);
      serial += 1;
      openssl(
        ["x509", "-req", "-in", `${name}.csr`, "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", String(serial), "-days", "2", "-extfile", "server.ext", "-out", `${name}.pem`],
        dir,
      );
      const cert = readFileSync(path.join(dir, `${name}.pem`), "utf8");
      return { certFile: path.join(dir, `${name}.pem`), keyFile: path.join(dir, `${name}.key`), cert, fingerprint: new X509Certificate(cert).fingerprint256 };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

