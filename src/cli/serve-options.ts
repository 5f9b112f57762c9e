/**
 * @module Options of `quiver serve`: flags win over QUIVER_* environment variables, which win
 * over the config file (`--config`), which wins over the defaults (127.0.0.1, port 2333, ./data).
 * Every setting is declared once in `serve-settings.ts`.
 */
import { parseArgs } from "node:util";
import type { JobSystemConfig } from "../jobs/job-settings.js";
import { type Vending, type VendingMode, defaultVending } from "../storage/storages.js";
import { type StorageOptions, isSecretStorageKey } from "../storage/storage-options.js";
import { checkStoreUrl } from "../store/open-store.js";
import { checkOtelEndpoint } from "../tracing/start-tracing.js";
import { defaultMaxUploadBytes } from "../server/upload-limit.js";
import type { RateLimitConfig } from "../server/rate-limits.js";
import { rateLimitOf } from "./rate-setting.js";
import type { AuthConfig } from "./auth-runtime.js";
import { readConfigFile } from "./config-file.js";
import type { LogFormat } from "./log-output.js";
import { configSetting, type Setting, settingGroups, serveSettings } from "./serve-settings.js";
import { type FlagValues, type SettingValue, readSettings } from "./settings-reader.js";
import type { StorageFlags } from "./storage-flags.js";
import type { TlsFiles } from "./tls-files.js";
import { checkWebhookSecret } from "../catalog/events/webhook-secret.js";

export interface ServeOptions {
  host: string;
  port: number;
  /** The certificate and key files to serve HTTPS with; undefined serves plain HTTP. */
  tls: TlsFiles | undefined;
  root: string;
  /** PostgreSQL URL of the metadata store; undefined keeps the SQLite file under the root. */
  store: string | undefined;
  logLevel: string;
  logFormat: LogFormat;
  /** The OpenTelemetry collector traces are sent to; undefined leaves it to the OTEL_* environment. */
  otelEndpoint: string | undefined;
  managedVersioning: boolean;
  auth: AuthConfig;
  /** Attempts of a write whose commits keep conflicting; undefined leaves the engine's default. */
  commitAttempts: number | undefined;
  /** Seconds a request waits for an object store; undefined leaves the default. */
  storeTimeoutSeconds: number | undefined;
  storage: StorageFlags;
  /** The object cache's folder; undefined keeps `<root>/cache`. */
  cacheDir: string | undefined;
  /** The object cache's bound in bytes (0: off); undefined keeps the default. */
  cacheBytes: number | undefined;
  /** The part of the cache's bound given to local copies of tables; undefined keeps half. */
  cacheCopyBytes: number | undefined;
  vending: Vending;
  /** Write to object stores that fail the conditional-create probe. */
  allowUnsafeObjectStore: boolean;
  /** Job-system settings that were set; the rest keep their defaults. */
  jobs: JobSystemConfig;
  /** Time between orphaned-folder sweeps; undefined keeps the default. */
  orphanSweepIntervalMs: number | undefined;
  /** How long dropped tables stay restorable; 0 deletes at once. */
  dropRetentionMs: number | undefined;
  /** Time between purges of dropped tables past their retention; undefined keeps the default. */
  dropPurgeIntervalMs: number | undefined;
  /** Largest Arrow upload of one request, in bytes. */
  maxUploadBytes: number;
  /** The memory uploads in flight may hold together, in bytes; undefined keeps the default. */
  uploadMemoryBytes: number | undefined;
  /** Request rate limits per caller and per database; none unless set. */
  rateLimits: RateLimitConfig;
  /** How long an `Idempotency-Key` answers its retries, in milliseconds; undefined keeps the default. */
  idempotencyTtlMs: number | undefined;
  /** Where change events are pushed, with the secret that signs them; none unless set. */
  eventWebhooks: { targets: string[]; secret: string } | undefined;
  /** How long change events are kept; undefined keeps the default. */
  eventRetentionMs: number | undefined;
  /** Values that must never reach a log: secret storage-option values, the store URL's password. */
  secrets: string[];
}

function usageLine(setting: Setting): string {
  const flag = setting.placeholder ? `${setting.flag} ${setting.placeholder}` : setting.flag;
  const notes = [`env ${setting.env}`, setting === configSetting ? undefined : `file ${setting.key}`, setting.shownDefault ? `default ${setting.shownDefault}` : undefined].filter(Boolean).join(", ");
  return `  ${flag.padEnd(30)} ${setting.help}\n  ${"".padEnd(30)} (${notes})`;
}

export const serveUsage = `Usage: quiver serve [options]

Each option is also an environment variable and a key of the config file; a flag wins over the
environment, which wins over the file.

${usageLine(configSetting)}
${settingGroups.map((group) => `${group.title}:\n${group.settings.map(usageLine).join("\n")}`).join("\n\n")}

  -h, --help                     show this help`;

/** parseArgs' option table, from the settings. */
const flagSpecs = Object.fromEntries(
  [configSetting, ...serveSettings].map((setting) => [
    setting.flag.slice(2),
    setting.kind.type === "boolean"
      ? { type: "boolean" as const }
      : setting.kind.type === "map" || setting.kind.type === "list"
        ? { type: "string" as const, multiple: true }
        : { type: "string" as const },
  ]),
);

export function parseServeOptions(argv: string[], env: NodeJS.ProcessEnv): ServeOptions | "help" {
  const { values } = parseArgs({ args: argv, options: { ...flagSpecs, help: { type: "boolean", short: "h" } }, strict: true });
  const flags = values as FlagValues;
  if (flags.help) return "help";
  const configPath = (flags.config as string | undefined) ?? (env.QUIVER_CONFIG || undefined);
  const file = configPath === undefined ? undefined : readConfigFile(configPath, serveSettings);
  const settings = readSettings(serveSettings, flags, env, file);
  const get = <T extends SettingValue>(key: string): T | undefined => settings.get(key) as T | undefined;

  const storageOptions = get<StorageOptions>("storage_options") ?? {};
  const store = get<string>("store");
  if (store !== undefined) checkStoreUrl(store);
  return {
    host: get("host") ?? "127.0.0.1",
    port: get("port") ?? 2333,
    tls: tlsOf(get),
    root: get("root") ?? "./data",
    store,
    logLevel: get("log_level") ?? "info",
    logFormat: get("log_format") ?? "auto",
    otelEndpoint: optional(get<string>("otel_endpoint"), checkOtelEndpoint),
    managedVersioning: get("managed_versioning") ?? false,
    auth: authOf(get),
    commitAttempts: get("commit_attempts"),
    storeTimeoutSeconds: get("store_timeout"),
    storage: { data: get("data"), options: storageOptions },
    cacheDir: get("cache_dir"),
    cacheBytes: get("cache_size"),
    cacheCopyBytes: get("cache_copy_size"),
    vending: {
      mode: get<VendingMode>("vend_credentials") ?? defaultVending.mode,
      ttlSeconds: get("credential_ttl") ?? defaultVending.ttlSeconds,
      vendSharedContainers: get("vend_shared_containers") ?? false,
    },
    allowUnsafeObjectStore: get("allow_unsafe_object_store") ?? false,
    maxUploadBytes: get("max_upload_size") ?? defaultMaxUploadBytes,
    uploadMemoryBytes: get("upload_memory"),
    rateLimits: {
      principal: rateLimitOf("--rate-limit", get("rate_limit"), get("rate_limit_burst")),
      database: rateLimitOf("--database-rate-limit", get("database_rate_limit"), get("database_rate_limit_burst")),
    },
    idempotencyTtlMs: secondsToMs(get("idempotency_ttl")),
    jobs: {
      pools: get("worker_pools"),
      leaseMs: get("job_lease_ms"),
      pollMs: get("job_poll_ms"),
      maxConcurrentJobs: get("job_concurrency"),
      autoRefresh: {
        rows: get("auto_refresh_rows"),
        versions: get("auto_refresh_versions"),
        cooldownMs: get("auto_refresh_cooldown_ms"),
        intervalMs: get("auto_refresh_interval_ms"),
      },
      autoMaintenance: {
        enabled: onOff(get<string>("auto_maintenance")),
        retentionMs: get("version_retention"),
        intervalMs: get("auto_maintenance_interval_ms"),
      },
    },
    orphanSweepIntervalMs: get("orphan_sweep_interval_ms"),
    dropRetentionMs: get("drop_retention"),
    dropPurgeIntervalMs: get("drop_purge_interval"),
    eventWebhooks: eventWebhooksOf(get),
    eventRetentionMs: get("event_retention"),
    secrets: [...Object.entries(storageOptions).filter(([key]) => isSecretStorageKey(key)).map(([, value]) => value), ...passwordOf(store), ...(get<string>("event_webhook_secret") ? [get<string>("event_webhook_secret") as string] : [])],
  };
}

function optional<T>(value: T | undefined, check: (value: T) => T): T | undefined {
  return value === undefined ? undefined : check(value);
}

function onOff(value: string | undefined): boolean | undefined {
  return value === undefined ? undefined : value === "on";
}

function secondsToMs(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : seconds * 1000;
}

function passwordOf(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password ? [password, new URL(url).password] : [];
  } catch {
    return [];
  }
}

function authOf(get: <T extends SettingValue>(key: string) => T | undefined): AuthConfig {
  const auth: AuthConfig = { mode: get<"none" | "required">("auth") ?? "none", tokenTtlSeconds: get("token_ttl") ?? 3600, insecureNoAuth: get("insecure_no_auth") ?? false };
  const issuer = get<string>("oidc_issuer");
  const audience = get<string>("oidc_audience");
  const jwksUrl = get<string>("oidc_jwks_url");
  if (issuer || audience || jwksUrl) {
    if (!issuer || !audience || !jwksUrl) throw new Error("--oidc-issuer, --oidc-audience and --oidc-jwks-url go together");
    auth.oidc = { issuer, audience, jwksUrl, roleClaim: get("oidc_role_claim"), databaseClaim: get("oidc_database_claim"), groupsClaim: get("oidc_groups_claim") };
  }
  return auth;
}

function eventWebhooksOf(get: <T extends SettingValue>(key: string) => T | undefined): ServeOptions["eventWebhooks"] {
  const targets = get<string[]>("event_webhook") ?? [];
  const secret = get<string>("event_webhook_secret");
  if (targets.length === 0) return undefined;
  if (!secret) throw new Error("--event-webhook needs --event-webhook-secret: every delivery is signed");
  for (const target of targets) {
    const url = URL.canParse(target) ? new URL(target) : undefined;
    if (url?.protocol !== "http:" && url?.protocol !== "https:") throw new Error(`--event-webhook must be an http(s) URL, got '${target}'`);
  }
  checkWebhookSecret(secret);
  return { targets, secret };
}

function tlsOf(get: <T extends SettingValue>(key: string) => T | undefined): TlsFiles | undefined {
  const certFile = get<string>("tls_cert");
  const keyFile = get<string>("tls_key");
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (!certFile || !keyFile) throw new Error("--tls-cert and --tls-key go together");
  return { certFile, keyFile };
}
