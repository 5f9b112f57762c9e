/**
 * The operation behind a version (the `operation` and `operation_detail` ListTableVersions
 * answers) in the words the console shows: on the Versions tab, the home page and the Data tab's
 * version choice.
 */

/** What made a version, in words: the operation Lance recorded and its detail. */
const OPERATION_WORDS = {
  Append: "append",
  Delete: "delete",
  Overwrite: "create / overwrite",
  CreateIndex: "index",
  Rewrite: "compaction",
  Merge: "add columns",
  Restore: "restore",
  ReserveFragments: "reserve fragments",
  Update: "update / merge insert",
  Project: "drop columns",
  UpdateConfig: "config change",
  DataReplacement: "data replacement",
  Clone: "clone",
};

/** Version `v`'s operation in words, e.g. `restore (version 2)`; "–" when the server names none. */
export function operationText(v) {
  if (!v.operation) return "–";
  const words = OPERATION_WORDS[v.operation] ?? v.operation;
  return v.operation_detail ? `${words} (${v.operation_detail})` : words;
}
