/**
 * @module What local copies of tables need to know of Lance's table format: the folders whose
 * files a version reads (each written once under a name never written again), where a version's
 * manifest is, and which versions a copy of those folders cannot serve: those reading files in
 * other locations (base paths of shallow clones and multi-base tables, external row-id and
 * row-version files) or naming a data file that is not a plain name in the copied `data/`.
 */
import { safeSegment } from "../storage/object-cache/copy-files.js";
import type { CopiedTableFormat } from "../storage/object-cache/table-copies.js";
import { type Field, fieldsOf, manifestMessage } from "./table-files/lance-proto.js";
import { manifestFileName } from "./table-files/manifests.js";

/** `Manifest.fragments`, `Manifest.base_paths`. */
const manifestFragments = 2;
const manifestBasePaths = 18;
/** `DataFragment`: its id, data files, deletion file, and the external files of its row ids and row versions. */
const fragmentId = 1;
const fragmentFiles = 2;
const fragmentDeletionFile = 3;
const fragmentExternalFiles = [6, 8, 10];
/** `DataFile.path` and `DataFile.base_id` (`DeletionFile.base_id` has the same number). */
const dataFilePath = 1;
const baseId = 7;
/** `DeletionFile`: its type (0 Arrow, 1 bitmap), the version it was read at, and its id. */
const deletionType = 1;
const deletionReadVersion = 2;
const deletionId = 3;

const numberOf = (fields: Field[], number: number): bigint => {
  const value = fields.find((field) => field.number === number)?.value;
  return typeof value === "bigint" ? value : 0n;
};
const bytesOf = (fields: Field[], number: number): Buffer[] => fields.filter((field) => field.number === number && Buffer.isBuffer(field.value)).map((field) => field.value as Buffer);

/** Why a fragment cannot be read from a copy holding `files`; throws when a file it reads is not there. */
function fragmentRefusal(fragment: Field[], files: ReadonlySet<string>): "other-locations" | "unsafe-name" | undefined {
  if (fragment.some((field) => fragmentExternalFiles.includes(field.number))) return "other-locations";
  for (const dataFile of bytesOf(fragment, fragmentFiles).map(fieldsOf)) {
    if (dataFile.some((field) => field.number === baseId)) return "other-locations";
    const name = bytesOf(dataFile, dataFilePath)[0]?.toString("utf8") ?? "";
    // One plain segment, as Lance writes a data file's name.
    if (!safeSegment.test(name)) return "unsafe-name";
    if (!files.has(`data/${name}`)) throw new Error(`data file ${name} is not in the table's folder`);
  }
  const deletion = bytesOf(fragment, fragmentDeletionFile)[0];
  if (deletion) {
    const fields = fieldsOf(deletion);
    if (fields.some((field) => field.number === baseId)) return "other-locations";
    const extension = numberOf(fields, deletionType) === 1n ? "bin" : "arrow";
    const name = `_deletions/${numberOf(fragment, fragmentId)}-${numberOf(fields, deletionReadVersion)}-${numberOf(fields, deletionId)}.${extension}`;
    if (!files.has(name)) throw new Error(`deletion file ${name} is not in the table's folder`);
  }
  return undefined;
}

export const lanceCopyFormat: CopiedTableFormat = {
  folders: ["data", "_deletions", "_indices"],
  manifestPaths: (version) => [`_versions/${manifestFileName(version, "V2")}`, `_versions/${manifestFileName(version, "V1")}`],
  refusal(manifest, files) {
    const fields = fieldsOf(manifestMessage(manifest));
    if (fields.some((field) => field.number === manifestBasePaths)) return "other-locations";
    for (const fragment of bytesOf(fields, manifestFragments)) {
      const refusal = fragmentRefusal(fieldsOf(fragment), files);
      if (refusal) return refusal;
    }
    return undefined;
  },
};
