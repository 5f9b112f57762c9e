/**
 * @module CreateMaterializedView and RefreshMaterializedView (spec/endpoints.md §10,
 * spec/concepts.md §9). A view is a table of the catalog (describe, query and index work on it)
 * plus a definition row; refreshes run as durable jobs (src/jobs/refresh-view-job.ts).
 */
import { decodeIpcSchema, sameTypeFamily, sourceRowIdColumn } from "../../engine/engine.js";
import type { Schema } from "apache-arrow-21";
import type {
  CreateMaterializedViewRequest,
  CreateMaterializedViewResponse,
  RefreshMaterializedViewRequest,
  RefreshMaterializedViewResponse,
} from "../../model/materialized-view.js";
import type { MaterializedViewRow } from "../../store/job-schema.js";
import type { StoreTx } from "../../store/store.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { tableLabel, splitTableId } from "../identifiers.js";
import { enqueueJob, resolvePool } from "../jobs/job-queue.js";
import { newTableLocation } from "../table-locations.js";
import { findTable, requireNoNamespaceNamed, requireTable } from "../table-lookup.js";
import { alreadyExists, creatingTable, insertTableRow } from "../tables/table-creation.js";
import { type ViewDefinition, definitionSha, parseKind, parseSourceQuery, parseUdtfSpec, quoteColumn, checkColumnNames } from "./view-definition.js";

export const refreshViewJobKind = "refresh_materialized_view";

/** Defaults of a refresh's operational knobs. */
export const refreshDefaults = {
  maxRowsPerFragment: 1_048_576,
  concurrency: 1,
  intraApplierConcurrency: 1,
  sourceTaskSize: 10_000,
} as const;

/** What a refresh job is asked to do; stored as the job's params and shown as its `spec`. */
export interface RefreshJobParams {
  view: string[];
  src_version: number | null;
  max_rows_per_fragment: number;
  concurrency: number;
  intra_applier_concurrency: number;
  source_task_size: number;
  output_limit: number | null;
  /** The parsed inline manifest of this refresh only; null = the view's stored one. */
  manifest: unknown;
  cluster: string;
  /** Set when the job system queued the refresh on its own (auto_refresh); absent otherwise. */
  auto_refresh?: AutoRefreshTrigger;
}

/** Why an automatic refresh was queued: the source drift measured at that moment. */
export interface AutoRefreshTrigger {
  reason: string;
  source_version: number;
  versions_committed: number;
  /** Source row changes (added + removed) measured; null when the versions alone decided. */
  rows_changed: number | null;
}

/**
 * CreateMaterializedView: validates the definition, creates the view's (empty) table from the
 * computed output schema, and stores the definition. With `with_no_data: false` it also queues
 * the first refresh and returns its `job_id`. Throws 1 (namespace), 4 (source table), 5 (name
 * taken), 12 (unknown source column), 13 (bad kind, source_query, udtf_spec, output_schema).
 */
export async function createMaterializedView(
  scope: CatalogScope,
  request: WithId<CreateMaterializedViewRequest>,
): Promise<CreateMaterializedViewResponse> {
  // validate
  const { id } = request;
  const { namespace, name } = splitTableId(id);
  const kind = parseKind(request.kind);
  const chunker = parseUdtfSpec(kind, request.udtf_spec);
  const parsed = parseSourceQuery(request.source_query);
  const declared = decodeOutputSchema(request.output_schema);
  const subject = `materialized view '${id.join("$")}'`;
  const database = scope.database.name;
  const io = scope.engine.views;

  return translating(subject, async () => {
    // load
    if (await findTable(scope.store.rows, database, id)) throw alreadyExists(id);
    await requireNoNamespaceNamed(scope.store.rows, database, namespace, name);
    const source = await requireTable(scope.store.rows, database, parsed.source);
    if (!(await scope.engine.datasetExists(source.location))) throw invalidInput(`source ${tableLabel(parsed.source)} has no data yet`);

    // decide: the definition, with "all columns" resolved now so later source changes
    // cannot silently change the view's columns.
    const projections = parsed.projections ?? (await io.schemaOf(source.location)).fields.map((f) => [f.name, quoteColumn(f.name)] as [string, string]);
    const definition: ViewDefinition = {
      kind,
      source: parsed.source,
      projections,
      filter: parsed.filter,
      chunker,
      udtfVersion: request.udtf_spec?.udtf_version ?? null,
    };
    checkColumnNames([...projections.map(([alias]) => alias), ...(chunker ? [chunker.outputColumn, chunker.indexColumn ?? ""].filter(Boolean) : [])]);
    const schema = await io.viewSchema(source.location, {}, { projections, filter: definition.filter, chunker });
    checkDeclaredSchema(declared, schema);

    // write: the table first at a fresh location, then the rows; a lost race removes the data.
    const placed = newTableLocation(scope.database);
    const version = await io.createViewTable(placed.location, schema);
    try {
      const jobId = await creatingTable(scope, id, async (tx) => {
        await insertTableRow(tx, scope, id, { id: placed.id, location: placed.location, managed: true, properties: {}, storageOptions: {} }, "view.created");
        const now = Date.now();
        await tx.insertMaterializedView({
          table_id: placed.id,
          database,
          kind,
          source_query: request.source_query,
          definition: { ...definition },
          definition_sha: definitionSha(definition),
          output_schema: request.output_schema,
          udtf_spec: request.udtf_spec ? request.udtf_spec : null,
          auto_refresh: request.auto_refresh ? 1 : 0,
          refreshed_source_table: null,
          refreshed_source_version: null,
          refreshed_definition_sha: null,
          refreshed_view_version: null,
          created_at: now,
          updated_at: now,
        });
        if (request.with_no_data !== false) return null;
        return queueRefresh(tx, scope, id, placed.id, { src_version: null });
      });
      return jobId ? { version, job_id: jobId } : { version };
    } catch (error) {
      await scope.engine.removeTableData(placed.location, scope.database.storageRoot);
      throw error;
    }
  });
}

/**
 * RefreshMaterializedView: queues a refresh job and returns its id at once (the route answers
 * 202). Incremental unless the definition or the source changed identity (see
 * docs/materialized-views.md). Throws 1, 4, 11 (`src_version` missing in the source), 13 (not
 * a view, `output_limit` on a view that is not a chunker view, unknown `cluster`, `manifest`
 * not JSON).
 */
export async function refreshMaterializedView(
  scope: CatalogScope,
  request: WithId<RefreshMaterializedViewRequest>,
): Promise<RefreshMaterializedViewResponse> {
  // validate
  const { id } = request;
  splitTableId(id);
  const pool = resolvePool(scope, request.cluster);
  let manifest: unknown = null;
  if (request.manifest !== undefined && request.manifest !== null) {
    try {
      manifest = JSON.parse(request.manifest);
    } catch {
      throw invalidInput("manifest must be a JSON-serialized manifest");
    }
  }
  const subject = `materialized view '${id.join("$")}'`;
  const database = scope.database.name;

  return translating(subject, async () => {
    // load
    const table = await requireTable(scope.store.rows, database, id);
    const view = await requireView(scope.store.rows, table.id, id);
    // decide: the service description's one error rule
    if (request.output_limit !== undefined && request.output_limit !== null && view.kind !== "chunker") {
      throw invalidInput(`output_limit applies only to chunker materialized views; ${subject} is a ${view.kind} view`);
    }
    if (request.src_version !== undefined && request.src_version !== null) {
      const definition = view.definition as unknown as ViewDefinition;
      const source = await requireTable(scope.store.rows, database, definition.source);
      await scope.engine.describeTable(source.location, { version: request.src_version }).catch((error: unknown) => {
        throw CatalogError.of("TableVersionNotFound", `source ${tableLabel(definition.source)} has no version ${request.src_version}`, { cause: error });
      });
    }
    // write
    const jobId = await scope.store.transaction(async (tx) =>
      queueRefresh(tx, scope, id, table.id, {
        src_version: request.src_version ?? null,
        max_rows_per_fragment: request.max_rows_per_fragment ?? refreshDefaults.maxRowsPerFragment,
        concurrency: request.concurrency ?? refreshDefaults.concurrency,
        intra_applier_concurrency: request.intra_applier_concurrency ?? refreshDefaults.intraApplierConcurrency,
        source_task_size: request.source_task_size ?? refreshDefaults.sourceTaskSize,
        output_limit: request.output_limit ?? null,
        manifest,
        cluster: pool,
      }),
    );
    return { job_id: jobId };
  });
}

/** Queues a refresh job of the view `tableId` (named `id`) in `tx`; unset params take the defaults. */
export async function queueRefresh(tx: StoreTx, scope: CatalogScope, id: string[], tableId: string, params: Partial<RefreshJobParams>): Promise<string> {
  const full: RefreshJobParams = {
    view: id,
    src_version: null,
    max_rows_per_fragment: refreshDefaults.maxRowsPerFragment,
    concurrency: refreshDefaults.concurrency,
    intra_applier_concurrency: refreshDefaults.intraApplierConcurrency,
    source_task_size: refreshDefaults.sourceTaskSize,
    output_limit: null,
    manifest: null,
    cluster: resolvePool(scope, null),
    ...params,
  };
  return enqueueJob(tx, scope.database.name, {
    kind: refreshViewJobKind,
    target: tableId,
    targetName: id[id.length - 1] as string,
    params: full as unknown as Record<string, unknown>,
    pool: full.cluster,
  });
}

async function requireView(tx: StoreTx, tableId: string, id: string[]): Promise<MaterializedViewRow> {
  const view = await tx.findMaterializedView(tableId);
  if (!view) throw invalidInput(`${tableLabel(id)} is not a materialized view`);
  return view;
}

function decodeOutputSchema(text: string): Schema {
  try {
    return decodeIpcSchema(Buffer.from(text, "base64"));
  } catch {
    throw invalidInput("output_schema must be a base64-encoded Arrow IPC schema");
  }
}

/** The client's declared output schema must name the view's columns with compatible types. */
function checkDeclaredSchema(declared: Schema, computed: Schema): void {
  const computedFields = computed.fields.filter((f) => f.name !== sourceRowIdColumn);
  const declaredFields = declared.fields.filter((f) => f.name !== sourceRowIdColumn);
  const want = new Map(computedFields.map((f) => [f.name, f]));
  const problems: string[] = [];
  for (const field of declaredFields) {
    const match = want.get(field.name);
    if (!match) problems.push(`'${field.name}' is not a column of the view`);
    else if (!sameTypeFamily(field.type, match.type)) problems.push(`'${field.name}' is declared ${field.type} but the view computes ${match.type}`);
    want.delete(field.name);
  }
  for (const name of want.keys()) problems.push(`view column '${name}' is missing from output_schema`);
  if (problems.length > 0) throw invalidInput(`output_schema does not match the view: ${problems.join("; ")}`);
}
