/**
 * @module What the version operations share besides committing: the naming scheme a request
 * asks for, and turning records and manifest files into the wire's `TableVersion`.
 */
import type { ManifestFile, ManifestNamingScheme } from "../../engine/engine.js";
import { parseMode } from "../../model/modes.js";
import { ManifestNamingSchemes, type TableVersion } from "../../model/versions.js";
import { objectPathOf } from "../../storage/locations.js";
import type { TableVersionRow } from "../../store/schema.js";
import { invalidInput } from "../../model/catalog-error.js";

export function parseNamingScheme(value: string | null | undefined): ManifestNamingScheme {
  const scheme = parseMode(value, ManifestNamingSchemes);
  if (scheme === null) throw invalidInput(`naming_scheme must be V1 or V2; got ${JSON.stringify(value)}`);
  return scheme ?? "V2";
}

/**
 * A version as the wire shows it: a manifest file, with what the record knows laid over it. The
 * manifest path is the object path Lance resolves against its store: absolute for a local table
 * (Lance reads `/a/b` and `a/b` alike), below the bucket for an object store (no scheme).
 */
export function toTableVersion(file: ManifestFile | undefined, record: TableVersionRow | undefined): TableVersion {
  const version = (file?.version ?? record?.version) as number;
  const out: TableVersion = { version, manifest_path: objectPathOf(file?.path ?? (record?.manifest_path as string)) };
  const size = file?.size ?? record?.manifest_size ?? undefined;
  if (size != null) out.manifest_size = Number(size);
  const eTag = file?.eTag ?? record?.e_tag ?? undefined;
  if (eTag) out.e_tag = eTag;
  const timestamp = record?.timestamp_millis ?? file?.modifiedMillis;
  if (timestamp != null) out.timestamp_millis = Math.floor(Number(timestamp));
  out.metadata = record ? record.metadata : {};
  return out;
}
