/**
 * @module CloneTable (`POST /v1/table/{id}/clone`, spec/clients.md §2.3): a new table whose
 * first version is a shallow clone of another table of the same database, at a version or tag.
 */
import type { CloneTableRequest, CloneTableResponse } from "../../model/clone.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import { capabilitiesOf } from "../../storage/backend-descriptors.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { tableLabel, namespaceIdOfKey, splitTableId } from "../identifiers.js";
import { newTableLocation, resolveClientLocation } from "../table-locations.js";
import { declaredOnly, findTable, requireNoNamespaceNamed } from "../table-lookup.js";
import { recordCloneSource } from "../shared-table-data.js";
import { optionalTag } from "../table-refs.js";
import { alreadyExists, creatingTable, insertTableRow } from "./table-creation.js";

function droppedWhileCloned(sourceSubject: string): CatalogError {
  return CatalogError.of("TableNotFound", `${sourceSubject} was dropped while it was being cloned`);
}

/**
 * Clones the table at `source_location` (a table of this database) under `id`, at
 * `source_version` or `source_tag` (its latest version when neither). The clone gets its own
 * location and history and shares the source's data files, so writes to either leave the other
 * unchanged. Deep clones (`is_shallow: false`) are Unsupported (0): the engine binding makes
 * only shallow ones, and only on local folders. Throws 0, 1, 4 (no table at the source location), 5, 8, 11, 13, 19.
 */
export async function cloneTable(scope: CatalogScope, request: WithId<CloneTableRequest>): Promise<CloneTableResponse> {
  // validate
  const { id } = request;
  const { namespace, name } = splitTableId(id);
  if (request.is_shallow === false) {
    throw CatalogError.of("Unsupported", "deep clone (is_shallow false) is not supported: this server's Lance engine makes only shallow clones, which read the source's data files in place");
  }
  if (request.source_version != null && request.source_tag != null) throw invalidInput("give source_version or source_tag, not both");
  const sourceTag = optionalTag(request.source_tag, "source_tag");
  if (!capabilitiesOf(scope.database.storageRoot)?.shallowClone) {
    // Lance's clone opens the source by URI without the connection's storage options, so it cannot reach a store that needs them.
    throw CatalogError.of("Unsupported", "clone is not available for tables on an object store: this server's Lance engine cannot open the source there with the database's storage options");
  }
  const sourceLocation = await resolveClientLocation(scope.storages, scope.database, request.source_location);
  const subject = tableLabel(id);
  const database = scope.database.name;

  return translating(subject, async () => {
    // load
    const source = await scope.store.rows.findTableByLocation(database, sourceLocation);
    if (!source) throw CatalogError.of("TableNotFound", `no table of database '${database}' is at '${request.source_location}'`);
    const sourceSubject = tableLabel([...namespaceIdOfKey(source.namespace_path), source.name]);
    if (!(await scope.engine.datasetExists(source.location))) throw declaredOnly(sourceSubject);
    // decide
    if (await findTable(scope.store.rows, database, id)) throw alreadyExists(id);
    await requireNoNamespaceNamed(scope.store.rows, database, namespace, name);
    // write: the clone first at a fresh location, then the row; a lost race removes the clone.
    const placed = newTableLocation(scope.database);
    const version = await translating(sourceSubject, () =>
      scope.engine.shallowClone(placed.location, source.location, { version: request.source_version, tag: sourceTag }),
    ).catch(async (error: unknown) => {
      await scope.engine.removeTableData(placed.location, scope.database.storageRoot);
      // A drop that removed the source's files while the engine read them answers as the drop did.
      if ((await scope.store.rows.findTableByLocation(database, sourceLocation))?.id !== source.id) throw droppedWhileCloned(sourceSubject);
      throw error;
    });
    try {
      // What the clone reads: the tag's branch and version, or the version of main it was made from.
      const tagged = sourceTag ? await scope.engine.files.refs.tag(source.location, sourceTag) : undefined;
      const from = { branch: tagged?.branch ?? "", version: tagged?.version ?? version };
      await creatingTable(scope, id, async (tx) => {
        // The source's row, locked: a drop of it either committed before (the clone fails) or waits and then sees the clone's reference.
        const current = await tx.lockTableRow(source.id);
        if (current?.location !== source.location) throw droppedWhileCloned(sourceSubject);
        await insertTableRow(tx, scope, id, { id: placed.id, location: placed.location, managed: true, properties: {}, storageOptions: {}, headVersion: version }, "table.cloned");
        await recordCloneSource(tx, placed.id, current, from);
      });
    } catch (error) {
      await scope.engine.removeTableData(placed.location, scope.database.storageRoot);
      throw error;
    }
    return { location: placed.location, version };
  });
}
