/**
 * @module Options of `quiver serve`: flags win over QUIVER_* environment variables, which win
 * over the defaults (127.0.0.1, port 2333, ./data).
 */
import { parseArgs } from "node:util";
import { defaultCommitAttempts } from "../engine/commit-retry.js";
import { integerSetting } from "../jobs/job-settings.js";
import { type Vending, type VendingMode, defaultVending } from "../storage/storage-for.js";
import type { AuthConfig } from "./auth-runtime.js";
import { type StorageFlags, parseStorageFlags, storageFlagSpecs } from "./storage-flags.js";
import { storeFlagSpec, storeSetting } from "./store-flag.js";

export interface ServeOptions {
  host: string;
  port: number;
  root: string;
  /** PostgreSQL URL of the metadata store; undefined keeps the SQLite file under the root. */
  store: string | undefined;
  logLevel: string;
  managedVersioning: boolean;
  auth: AuthConfig;
  /** Attempts of a write whose commits keep conflicting; undefined leaves the engine's default. */
  commitAttempts: number | undefined;
  storage: StorageFlags;
  vending: Vending;
  /** Write to object stores that fail the conditional-create probe. */
  allowUnsafeObjectStore: boolean;
}

export const serveUsage = `Usage: quiver serve [options]

  --host HOST            address to bind (env QUIVER_HOST, default 127.0.0.1)
  --port PORT            port to listen on, 0 for any free port (env QUIVER_PORT, default 2333)
  --root DIR             folder for the SQLite metadata store and, by default, the table data
                         (env QUIVER_ROOT, default ./data)
  --store URL            keep the catalog in PostgreSQL instead, e.g. postgres://user:pass@host:5432/quiver;
                         several replicas may share it (env QUIVER_STORE)
  --data LOCATION        where table data lives: a folder, s3://bucket/prefix, az://container/prefix or
                         gs://bucket/prefix (env QUIVER_DATA, default ROOT/databases)
  --storage-option K=V   an object-store setting in Lance's keys (aws_region, azure_storage_account_name, ...);
                         repeatable (env QUIVER_STORAGE_OPTIONS as a JSON object)
  --vend-credentials M   what clients get to open tables themselves: scoped (short-lived, one table, the
                         caller's role), static (the configured options, secrets included) or none
                         (env QUIVER_VEND_CREDENTIALS, default scoped)
  --credential-ttl SECS  lifetime of scoped credentials (env QUIVER_CREDENTIAL_TTL, default 3600)
  --allow-unsafe-object-store  write to an object store that ignores conditional creates, where
                         concurrent commits can lose data (env QUIVER_ALLOW_UNSAFE_OBJECT_STORE=1)
  --log-level LEVEL      fatal, error, warn, info, debug or silent (env QUIVER_LOG_LEVEL, default info)
  --managed-versioning   clients commit versions through the catalog (env QUIVER_MANAGED_VERSIONING=1)
  --auth MODE            none or required (env QUIVER_AUTH, default none; none only on a loopback host)
  --insecure-no-auth     allow --auth none on a non-loopback host: anyone who connects is admin
  --token-ttl SECONDS    lifetime of tokens from /oauth/token (env QUIVER_TOKEN_TTL, default 3600)
  --oidc-issuer URL      accept bearer tokens of this external issuer (env QUIVER_OIDC_ISSUER)
  --oidc-audience AUD    audience those tokens must carry (env QUIVER_OIDC_AUDIENCE)
  --oidc-jwks-url URL    where the issuer publishes its keys (env QUIVER_OIDC_JWKS_URL)
  --oidc-role-claim C    claim holding the role or a database-to-role map (default quiver_role)
  --oidc-database-claim C  claim naming the database of a single role (default quiver_database)
  -h, --help             show this help

Environment only:
  QUIVER_COMMIT_ATTEMPTS           attempts of a write whose commits keep conflicting before it answers 409 code 14 (default 6)
  QUIVER_WORKER_POOLS              comma-separated worker pools a job's cluster may name; the first is the default (default "default")
  QUIVER_JOB_LEASE_MS              how long a job's claim lasts without a heartbeat (default 15000)
  QUIVER_JOB_POLL_MS               how often an idle worker looks for due jobs (default 200)
  QUIVER_JOB_CONCURRENCY           jobs this process runs at once (default 2)
  QUIVER_AUTO_REFRESH_ROWS         source rows changed that make an auto-refresh view due (default 1000)
  QUIVER_AUTO_REFRESH_VERSIONS     source versions committed that make it due (default 20)
  QUIVER_AUTO_REFRESH_COOLDOWN_MS  least time between two refreshes of a view (default 60000)
  QUIVER_AUTO_REFRESH_INTERVAL_MS  how often views are checked; 0 turns auto refresh off (default 5000)`;

export function parseServeOptions(argv: string[], env: NodeJS.ProcessEnv): ServeOptions | "help" {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: "string" },
      port: { type: "string" },
      root: { type: "string" },
      ...storeFlagSpec,
      "log-level": { type: "string" },
      "managed-versioning": { type: "boolean" },
      auth: { type: "string" },
      "insecure-no-auth": { type: "boolean" },
      "token-ttl": { type: "string" },
      "oidc-issuer": { type: "string" },
      "oidc-audience": { type: "string" },
      "oidc-jwks-url": { type: "string" },
      "oidc-role-claim": { type: "string" },
      "oidc-database-claim": { type: "string" },
      ...storageFlagSpecs,
      "vend-credentials": { type: "string" },
      "credential-ttl": { type: "string" },
      "allow-unsafe-object-store": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) return "help";
  const portText = values.port ?? env.QUIVER_PORT ?? "2333";
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer from 0 to 65535, got '${portText}'`);
  const flag = (value: string | undefined) => value === "1" || value === "true";
  return {
    host: values.host ?? env.QUIVER_HOST ?? "127.0.0.1",
    port,
    root: values.root ?? env.QUIVER_ROOT ?? "./data",
    store: storeSetting(values.store, env),
    logLevel: values["log-level"] ?? env.QUIVER_LOG_LEVEL ?? "info",
    managedVersioning: values["managed-versioning"] ?? flag(env.QUIVER_MANAGED_VERSIONING),
    auth: parseAuthOptions(values, env),
    commitAttempts: integerSetting(env, "QUIVER_COMMIT_ATTEMPTS", 1, defaultCommitAttempts),
    storage: parseStorageFlags(values, env),
    vending: parseVending(values, env),
    allowUnsafeObjectStore: values["allow-unsafe-object-store"] ?? flag(env.QUIVER_ALLOW_UNSAFE_OBJECT_STORE),
  };
}

const vendingModes: readonly VendingMode[] = ["scoped", "static", "none"];

function parseVending(values: { "vend-credentials"?: string; "credential-ttl"?: string }, env: NodeJS.ProcessEnv): Vending {
  const mode = values["vend-credentials"] ?? env.QUIVER_VEND_CREDENTIALS ?? defaultVending.mode;
  if (!(vendingModes as readonly string[]).includes(mode)) throw new Error(`--vend-credentials must be scoped, static or none, got '${mode}'`);
  const ttlText = values["credential-ttl"] ?? env.QUIVER_CREDENTIAL_TTL ?? String(defaultVending.ttlSeconds);
  const ttlSeconds = Number(ttlText);
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 60 || ttlSeconds > 43_200) throw new Error(`--credential-ttl must be an integer from 60 to 43200 seconds, got '${ttlText}'`);
  return { mode: mode as VendingMode, ttlSeconds };
}

function parseAuthOptions(values: Record<string, string | string[] | boolean | undefined>, env: NodeJS.ProcessEnv): AuthConfig {
  const text = (name: string, envName: string) => (values[name] as string | undefined) ?? env[envName];
  const mode = text("auth", "QUIVER_AUTH") ?? "none";
  if (mode !== "none" && mode !== "required") throw new Error(`--auth must be none or required, got '${mode}'`);
  const ttlText = text("token-ttl", "QUIVER_TOKEN_TTL") ?? "3600";
  const tokenTtlSeconds = Number(ttlText);
  if (!Number.isInteger(tokenTtlSeconds) || tokenTtlSeconds < 1) throw new Error(`--token-ttl must be a positive integer, got '${ttlText}'`);
  const issuer = text("oidc-issuer", "QUIVER_OIDC_ISSUER");
  const audience = text("oidc-audience", "QUIVER_OIDC_AUDIENCE");
  const jwksUrl = text("oidc-jwks-url", "QUIVER_OIDC_JWKS_URL");
  const auth: AuthConfig = { mode, tokenTtlSeconds, insecureNoAuth: values["insecure-no-auth"] === true };
  if (issuer || audience || jwksUrl) {
    if (!issuer || !audience || !jwksUrl) throw new Error("--oidc-issuer, --oidc-audience and --oidc-jwks-url go together");
    auth.oidc = {
      issuer,
      audience,
      jwksUrl,
      roleClaim: text("oidc-role-claim", "QUIVER_OIDC_ROLE_CLAIM"),
      databaseClaim: text("oidc-database-claim", "QUIVER_OIDC_DATABASE_CLAIM"),
    };
  }
  return auth;
}
