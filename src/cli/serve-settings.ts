/**
 * @module Every setting of `quiver serve`, declared once: its config-file key, its flag, its
 * environment variable, its kind, default and help. The flag parser, the environment reader,
 * the config file's checks and `serve --help` are all built from this table, so a setting that
 * one of them knows, all of them know. A config-file key is the flag's name with `_` for `-`.
 */
import { defaultCommitAttempts } from "../engine/commit-retry.js";
import { defaultVending } from "../storage/storages.js";
import { defaultStoreTimeoutSeconds } from "../storage/store-timeout.js";
import { logFormats, logLevels } from "./log-output.js";

export type SettingKind =
  | { type: "string" }
  | { type: "boolean" }
  | { type: "integer"; min: number; max?: number }
  /** A byte count: a plain integer, or a number with a binary unit (`512KiB`, `64MiB`, `1GiB`). */
  | { type: "size"; min: number }
  /** A length of time, in milliseconds once read: seconds as a plain number, or with a unit (`30m`, `12h`, `7d`). */
  | { type: "duration" }
  | { type: "choice"; values: readonly string[] }
  /** Comma-separated in flags and environment, an array of strings in the file. */
  | { type: "list" }
  /** `--flag K=V` repeated, a JSON object in the environment, a table of strings in the file. */
  | { type: "map" };

export interface Setting {
  /** The config-file key. */
  key: string;
  flag: string;
  env: string;
  kind: SettingKind;
  /** What `--help` shows after the flag: `HOST`, `SECONDS`, ... (none for a switch). */
  placeholder?: string;
  help: string;
  /** The default as shown in `--help`; absent: unset. */
  shownDefault?: string;
}

const setting = (key: string, kind: SettingKind, help: string, extra: Partial<Setting> = {}): Setting => ({
  key,
  flag: `--${key.replace(/_/g, "-")}`,
  env: `QUIVER_${key.toUpperCase()}`,
  kind,
  help,
  ...extra,
});

const integer = (min: number, max?: number): SettingKind => ({ type: "integer", min, ...(max === undefined ? {} : { max }) });

/** Groups of settings, in the order `--help` lists them. */
export const settingGroups: readonly { title: string; settings: readonly Setting[] }[] = [
  {
    title: "Server",
    settings: [
      setting("host", { type: "string" }, "address to bind", { placeholder: "HOST", shownDefault: "127.0.0.1" }),
      setting("port", integer(0, 65_535), "port to listen on, 0 for any free port", { placeholder: "PORT", shownDefault: "2333" }),
      setting("tls_cert", { type: "string" }, "serve HTTPS (HTTP/1.1 and HTTP/2) with this PEM certificate chain; reread with the key on SIGHUP", { placeholder: "FILE" }),
      setting("tls_key", { type: "string" }, "the PEM private key of --tls-cert", { placeholder: "FILE" }),
      setting("log_level", { type: "choice", values: logLevels }, "fatal, error, warn, info, debug, trace or silent", { placeholder: "LEVEL", shownDefault: "info" }),
      setting("log_format", { type: "choice", values: logFormats }, "json, pretty, or auto: pretty when stdout is a terminal", { placeholder: "FORMAT", shownDefault: "auto" }),
      setting("otel_endpoint", { type: "string" }, "send OpenTelemetry traces (OTLP/HTTP) to this collector, e.g. http://localhost:4318; OTEL_EXPORTER_OTLP_ENDPOINT works too", {
        placeholder: "URL",
      }),
      setting("max_upload_size", { type: "size", min: 1 }, "largest Arrow upload one request may carry, in bytes or with KiB, MiB, GiB; a larger one is refused with 413", {
        placeholder: "SIZE",
        shownDefault: "1GiB",
      }),
      setting("upload_memory", { type: "size", min: 1 }, "bytes the uploads in flight may hold together (a completing multipart write counts its parts); over it: 503 code 17 with Retry-After", {
        placeholder: "SIZE",
        shownDefault: "a quarter of the machine's memory",
      }),
      setting("rate_limit", { type: "string" }, "requests each API key or token may make, e.g. 100/s (or 6000/m); anonymous callers count per address; over it: 429 code 21", {
        placeholder: "RATE",
      }),
      setting("rate_limit_burst", integer(1), "requests a caller may make at once before --rate-limit applies", { placeholder: "N", shownDefault: "one second's worth" }),
      setting("database_rate_limit", { type: "string" }, "requests each database may take from all callers together, e.g. 1000/s", { placeholder: "RATE" }),
      setting("database_rate_limit_burst", integer(1), "requests a database may take at once before --database-rate-limit applies", {
        placeholder: "N",
        shownDefault: "one second's worth",
      }),
      setting("idempotency_ttl", integer(1), "how long a mutating request's Idempotency-Key answers its retries with the first answer, in seconds", {
        placeholder: "SECONDS",
        shownDefault: "86400",
      }),
    ],
  },
  {
    title: "Storage",
    settings: [
      setting("root", { type: "string" }, "folder for the SQLite metadata store and, by default, the table data", { placeholder: "DIR", shownDefault: "./data" }),
      setting("store", { type: "string" }, "keep the catalog in PostgreSQL instead, e.g. postgres://user:pass@host:5432/quiver; several replicas may share it", {
        placeholder: "URL",
      }),
      setting("data", { type: "string" }, "where table data lives: a folder, s3://bucket/prefix, az://container/prefix or gs://bucket/prefix", {
        placeholder: "LOCATION",
        shownDefault: "ROOT/databases",
      }),
      setting("storage_options", { type: "map" }, "an object-store setting in Lance's keys (aws_region, azure_storage_account_name, ...); repeatable; env as a JSON object", {
        flag: "--storage-option",
        placeholder: "K=V",
      }),
      setting("vend_credentials", { type: "choice", values: ["scoped", "static", "none"] }, "what clients get to open tables themselves: scoped (short-lived, one table, the caller's role), static (the configured options, secrets included) or none", {
        placeholder: "MODE",
        shownDefault: defaultVending.mode,
      }),
      setting("credential_ttl", integer(60, 43_200), "lifetime of scoped credentials in seconds", { placeholder: "SECONDS", shownDefault: String(defaultVending.ttlSeconds) }),
      setting("vend_shared_containers", { type: "boolean" }, "vend scoped credentials even where they reach a container other databases share (an Azure account without a hierarchical namespace); by default none are vended there"),
      setting("store_timeout", integer(1, 3600), "how long a request waits for an object store before it answers 503 code 17 (reads answer at this deadline; writes fail within about this time per store request)", {
        placeholder: "SECONDS",
        shownDefault: String(defaultStoreTimeoutSeconds),
      }),
      setting("cache_dir", { type: "string" }, "folder of the local read-through cache of object-store table data (data, deletion and index files, version manifests), kept across restarts", {
        placeholder: "DIR",
        shownDefault: "<root>/cache",
      }),
      setting("cache_size", { type: "size", min: 0 }, "bound on the object cache's bytes on disk, in bytes or with KiB, MiB, GiB; least recently used blocks are evicted past it; 0 turns the cache off", {
        placeholder: "SIZE",
        shownDefault: "10GiB",
      }),
      setting("cache_copy_size", { type: "size", min: 0 }, "the part of --cache-size given to whole local copies of object-store tables, which queries read as local folders (a table is copied when it fits in half of it), at most three quarters; the rest holds blocks; 0 keeps blocks only", {
        placeholder: "SIZE",
        shownDefault: "half of --cache-size",
      }),
      setting("allow_unsafe_object_store", { type: "boolean" }, "write to an object store that ignores conditional creates, where concurrent commits can lose data"),
      setting("managed_versioning", { type: "boolean" }, "clients commit versions through the catalog (sets the mode of the default database when it is created)"),
      setting("orphan_sweep_interval_ms", integer(0), "how often table folders no catalog row refers to (left by a crash) are removed, on one replica at a time; 0: only at start-up", {
        placeholder: "MS",
        shownDefault: "3600000",
      }),
      setting("drop_retention", { type: "duration" }, "how long a dropped table stays restorable (GET /v1/namespace/{id}/dropped_tables, POST /v1/table/{id}/undrop) before its data is purged: seconds, or with s, m, h or d (7d); 0 deletes at once", {
        placeholder: "DURATION",
        shownDefault: "0",
      }),
      setting("drop_purge_interval", { type: "duration" }, "how often dropped tables past their retention are purged, on one replica at a time", {
        placeholder: "DURATION",
        shownDefault: "5m",
      }),
      setting("commit_attempts", integer(1), "attempts of a write whose commits keep conflicting before it answers 409 code 14", {
        placeholder: "N",
        shownDefault: String(defaultCommitAttempts),
      }),
    ],
  },
  {
    title: "Authentication",
    settings: [
      setting("auth", { type: "choice", values: ["none", "required"] }, "none or required; none only on a loopback host", { placeholder: "MODE", shownDefault: "none" }),
      setting("insecure_no_auth", { type: "boolean" }, "allow --auth none on a non-loopback host: anyone who connects is admin"),
      setting("token_ttl", integer(1), "lifetime of tokens from /oauth/token in seconds", { placeholder: "SECONDS", shownDefault: "3600" }),
      setting("oidc_issuer", { type: "string" }, "accept bearer tokens of this external issuer", { placeholder: "URL" }),
      setting("oidc_audience", { type: "string" }, "audience those tokens must carry", { placeholder: "AUD" }),
      setting("oidc_jwks_url", { type: "string" }, "where the issuer publishes its keys", { placeholder: "URL" }),
      setting("oidc_role_claim", { type: "string" }, "claim holding the role or a database-to-role map", { placeholder: "CLAIM", shownDefault: "quiver_role" }),
      setting("oidc_database_claim", { type: "string" }, "claim naming the database of a single role", { placeholder: "CLAIM", shownDefault: "quiver_database" }),
      setting("oidc_groups_claim", { type: "string" }, "claim listing the caller's groups, for grants to g:<group>", { placeholder: "CLAIM", shownDefault: "groups" }),
    ],
  },
  {
    title: "Jobs",
    settings: [
      setting("worker_pools", { type: "list" }, "worker pools a job's cluster may name, comma-separated; the first is the default", { placeholder: "NAMES", shownDefault: "default" }),
      setting("job_lease_ms", integer(1), "how long a job's claim lasts without a heartbeat", { placeholder: "MS", shownDefault: "15000" }),
      setting("job_poll_ms", integer(1), "how often an idle worker looks for due jobs", { placeholder: "MS", shownDefault: "200" }),
      setting("job_concurrency", integer(1), "jobs this process runs at once", { placeholder: "N", shownDefault: "2" }),
      setting("auto_refresh_rows", integer(0), "source rows changed that make an auto-refresh view due (0: never by rows)", { placeholder: "N", shownDefault: "1000" }),
      setting("auto_refresh_versions", integer(0), "source versions committed that make it due (0: never by versions)", { placeholder: "N", shownDefault: "20" }),
      setting("auto_refresh_cooldown_ms", integer(0), "least time between two refreshes of a view", { placeholder: "MS", shownDefault: "60000" }),
      setting("auto_refresh_interval_ms", integer(0), "how often views are checked; 0 turns auto refresh off", { placeholder: "MS", shownDefault: "5000" }),
      setting("auto_maintenance", { type: "choice", values: ["on", "off"] }, "compact, re-index and clean up tables without being asked (a database's setting and a table's quiver.auto_maintenance property override it)", {
        placeholder: "on|off",
        shownDefault: "on",
      }),
      setting("version_retention", { type: "duration" }, "how long old table versions are kept by automatic maintenance (tagged versions and versions still read are always kept): seconds, or with s, m, h or d", {
        placeholder: "DURATION",
        shownDefault: "7d",
      }),
      setting("auto_maintenance_interval_ms", integer(0), "how often every table is looked at for maintenance (commits also bring a look forward); 0: only after commits", {
        placeholder: "MS",
        shownDefault: "30000",
      }),
    ],
  },
  {
    title: "Change events",
    settings: [
      setting("event_webhook", { type: "list" }, "POST every change event (CloudEvents JSON, Standard Webhooks signatures) to this URL, at least once and in commit order, from one replica at a time; repeat the flag (or separate with commas) for several", {
        placeholder: "URL",
      }),
      setting("event_webhook_secret", { type: "string" }, "the Standard Webhooks secret the webhook requests are signed with: whsec_ followed by base64; needed with --event-webhook", {
        placeholder: "SECRET",
      }),
      setting("event_retention", { type: "duration" }, "how long change events are kept for GET /v1/events and webhook targets behind: seconds, or with s, m, h or d", {
        placeholder: "DURATION",
        shownDefault: "7d",
      }),
    ],
  },
];

export const serveSettings: readonly Setting[] = settingGroups.flatMap((group) => group.settings);

/** `--config FILE` (env QUIVER_CONFIG): read before the others, which it may set. */
export const configSetting: Setting = setting("config", { type: "string" }, "read settings from this TOML file; flags and environment win over it", { placeholder: "FILE" });
