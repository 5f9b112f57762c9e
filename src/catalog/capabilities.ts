/**
 * @module Builds the capability document from what is configured, never from a list kept by
 * hand: the operations from the operation table, the features and limits from the settings the
 * server (or the `dir` client) runs with. The server and the `dir` client build it alike.
 */
import type { Capabilities } from "../model/capabilities.js";
import { unsupportedRoutes } from "../model/unsupported-routes.js";
import { defaultVending, type Vending } from "../storage/storages.js";
import type { DatabaseInfo, JobSettings } from "./catalog-scope.js";
import { maxIdentifierLength, nameRules } from "./identifiers.js";
import { quiverVersion } from "./quiver-version.js";
import { tracingOn } from "../tracing/spans.js";

/** Multipart writes are on once their routes are no longer listed among the unsupported ones. */
const multipartWrites = !unsupportedRoutes.some((route) => route.path.includes("/multipart_write/"));

export interface CapabilitySettings {
  /** Operation ids served, in the operation table's order. */
  operations: readonly string[];
  authMode: "none" | "required";
  /** Deployment-wide: what clients opening tables themselves receive; absent means the default. */
  vending?: Vending;
  /** The URI schemes of the object stores configured now, shown with the storage settings. */
  objectStores: readonly string[];
  jobs?: JobSettings;
  /** Largest JSON body on the wire; null where there is no wire. */
  maxJsonBodyBytes: number | null;
  /** Largest Arrow upload of one request; null when uploads have no limit of their own. */
  maxUploadBytes: number | null;
  /** Storage facts (vending, object stores) are shown: false for callers without credentials on `--auth required`. */
  showStorage: boolean;
  /** The database the caller addresses, when it is shown. */
  database?: DatabaseInfo;
  /** `GET /v1/events` is served (the server; not the in-process `dir` client). */
  changeEvents: boolean;
}

export function describeCapabilities(settings: CapabilitySettings): Capabilities {
  const vending = settings.vending ?? defaultVending;
  const document: Capabilities = {
    server: "quiver",
    version: quiverVersion,
    operations: [...settings.operations],
    auth: { mode: settings.authMode },
    features: {
      order_by: true,
      vectorless_queries: true,
      multipart_writes: multipartWrites,
      async_jobs: true,
      worker_pools: [...(settings.jobs?.pools ?? ["default"])],
      tracing: tracingOn(),
      change_events: settings.changeEvents,
    },
    limits: {
      max_json_body_bytes: settings.maxJsonBodyBytes,
      max_upload_bytes: settings.maxUploadBytes,
      max_name_length: nameRules.maxLength,
      max_identifier_length: maxIdentifierLength,
      name_pattern: nameRules.pattern,
    },
    unsupported: unsupportedRoutes.map(({ method, path, feature }) => ({ method, path, feature })),
  };
  if (settings.showStorage) {
    document.storage = { credential_vending: vending.mode, credential_ttl_seconds: vending.ttlSeconds, object_stores: [...settings.objectStores] };
  }
  if (settings.database) document.database = { name: settings.database.name, managed_versioning: settings.database.managedVersioning };
  return document;
}
