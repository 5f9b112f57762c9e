// Imports point down the layers of docs/architecture.md; model sits at the bottom, and only the
// storage layer touches files at table locations.
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const srcRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../src");
const architectureDoc = readFileSync(path.resolve(srcRoot, "../docs/architecture.md"), "utf8");

/** Which other top-level folders each folder may import from; docs/architecture.md has the same table. */
const allowed: Record<string, string[]> = {
  cli: ["server", "auth", "jobs", "catalog", "store", "engine", "storage", "model", "metrics", "tracing"],
  server: ["auth", "catalog", "model", "metrics", "tracing"],
  auth: ["model"],
  jobs: ["catalog", "store", "model", "metrics"],
  client: ["catalog", "model"],
  catalog: ["store", "engine", "storage", "model", "metrics", "tracing"],
  store: ["model", "metrics", "tracing"],
  engine: ["storage", "model", "metrics", "tracing"],
  storage: ["model", "tracing"],
  model: [],
  metrics: [],
  tracing: [],
  ui: [],
  types: [],
};

/** Layers below the catalog throw their own narrow errors; only the catalog turns them into spec codes. */
const narrowErrorLayers = ["store", "engine", "storage"];
const specErrorModules = ["model/catalog-error.ts", "model/error-codes.ts"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : /\.(ts|js)$/.test(full) ? [full] : [];
  });
}

/**
 * Relative module paths a source imports: value and type-only imports and re-exports alike,
 * side-effect imports, and `import("...")` in type positions.
 */
function importedPaths(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s+|^\s*import\s+|\bimport\s*\(\s*)(["'])(\.[^"']+)\1/gm)].map((match) => match[2] as string);
}

/** The imports of `file` (relative to src/, with `/`) that leave its layer for one it may not use. */
function layerViolations(file: string, text: string): string[] {
  const layer = file.split("/")[0] as string;
  return importedPaths(text).flatMap((imported) => {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), imported));
    const targetLayer = target.split("/")[0] as string;
    const crossesUp = targetLayer !== layer && !(allowed[layer] ?? []).includes(targetLayer);
    const specError = narrowErrorLayers.includes(layer) && specErrorModules.includes(target.replace(/\.js$/, ".ts"));
    return crossesUp || specError ? [`${file} imports ${imported}`] : [];
  });
}

test("every import points down the layers", () => {
  const violations = sourceFiles(srcRoot).flatMap((file) => {
    const relative = path.relative(srcRoot, file).split(path.sep).join("/");
    return layerViolations(relative, readFileSync(file, "utf8"));
  });
  assert.deepEqual(violations, []);
});

test("a type-only import crossing a layer fails like a value import", () => {
  const upward = [
    'import { Catalog } from "../catalog/catalog.js";',
    'import type { Catalog } from "../catalog/catalog.js";',
    'import { type Catalog } from "../catalog/catalog.js";',
    'export type { Catalog } from "../catalog/catalog.js";',
    'import {\n  type Catalog,\n} from "../catalog/catalog.js";',
    'type Facade = import("../catalog/catalog.js").Catalog;',
  ];
  for (const line of upward) assert.deepEqual(layerViolations("auth/tokens.ts", line), ["auth/tokens.ts imports ../catalog/catalog.js"], line);
  assert.deepEqual(layerViolations("store/rows/table-rows.ts", 'import type { CatalogError } from "../../model/catalog-error.js";'), [
    "store/rows/table-rows.ts imports ../../model/catalog-error.js",
  ]);
  assert.deepEqual(layerViolations("server/route-kit.ts", 'import type { Catalog } from "../catalog/catalog.js";'), []);
});

test("docs/architecture.md lists exactly the allowed imports", () => {
  const header = architectureDoc.indexOf("| Folder | May import |");
  assert.ok(header >= 0, "the table of allowed imports is missing");
  const rows = (architectureDoc.slice(header).split("\n\n")[0] as string).split("\n").slice(2);
  const documented: Record<string, string[]> = {};
  for (const row of rows) {
    const [folder, imports] = row.split("|").slice(1, 3).map((cell) => [...cell.matchAll(/`(\w+)`/g)].map((m) => m[1] as string));
    documented[folder?.[0] as string] = imports ?? [];
  }
  const sorted = (table: Record<string, string[]>) => Object.fromEntries(Object.entries(table).map(([k, v]) => [k, [...v].sort()]));
  assert.deepEqual(sorted(documented), sorted(allowed));
});

/**
 * The catalog's own layers, bottom first: a file may import files of its own area and of the
 * levels below. `*.ts` is the top-level files every area shares, `catalog.ts` the facade over
 * every area, `runtime/` the composition that builds catalogs (databases, roots, job kinds).
 * docs/architecture.md has the same table.
 */
const catalogLevels: string[][] = [
  ["*.ts"],
  ["events/", "jobs/", "tables/"],
  ["namespaces/", "versions/", "rows/", "queries/", "schema-indexes/", "tags-branches/", "maintenance/", "views/"],
  ["catalog.ts"],
  ["runtime/"],
];

/** The catalog area of a file under `catalog/`: its folder, or `*.ts` / `catalog.ts` at the top level. */
function catalogAreaOf(file: string): string {
  const inside = file.slice("catalog/".length);
  if (!inside.includes("/")) return inside.replace(/\.js$/, ".ts") === "catalog.ts" ? "catalog.ts" : "*.ts";
  return `${inside.split("/")[0]}/`;
}

/** The imports of `file` (relative to src/) that reach a catalog area at its own level or above. */
function catalogAreaViolations(file: string, text: string): string[] {
  if (!file.startsWith("catalog/")) return [];
  const from = catalogAreaOf(file);
  const levelOf = (area: string) => catalogLevels.findIndex((level) => level.includes(area));
  return importedPaths(text).flatMap((imported) => {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), imported));
    if (!target.startsWith("catalog/")) return [];
    const to = catalogAreaOf(target);
    if (to === from) return [];
    const [fromLevel, toLevel] = [levelOf(from), levelOf(to)];
    return fromLevel < 0 || toLevel < 0 || toLevel >= fromLevel ? [`${file} imports ${imported}`] : [];
  });
}

test("every import inside the catalog points down its areas", () => {
  const violations = sourceFiles(path.join(srcRoot, "catalog")).flatMap((file) => {
    const relative = path.relative(srcRoot, file).split(path.sep).join("/");
    return catalogAreaViolations(relative, readFileSync(file, "utf8"));
  });
  assert.deepEqual(violations, []);
});

test("a catalog import upward, sideways within a level or into an unlisted area fails", () => {
  const cases: [string, string, boolean][] = [
    ["catalog/rows/row-writes.ts", 'import { loadTable } from "../table-lookup.js";', true],
    ["catalog/views/materialized-views.ts", 'import { insertTableRow } from "../tables/table-creation.js";', true],
    ["catalog/runtime/job-kinds.ts", 'import { refreshViewHandler } from "../views/refresh-view-job.js";', true],
    ["catalog/catalog.ts", 'import { queryTable } from "./queries/table-reads.js";', true],
    ["catalog/tables/table-lifecycle.ts", 'import { recordCommittedWrite } from "../versions/transactions.js";', false],
    ["catalog/rows/row-writes.ts", 'import type { QueryResult } from "../queries/table-reads.js";', false],
    ["catalog/jobs/job-queue.ts", 'import { jobHandlers } from "../runtime/job-kinds.js";', false],
    ["catalog/table-lookup.ts", 'import { Catalog } from "./catalog.js";', false],
    ["catalog/gadgets/gadget.ts", 'import { loadTable } from "../table-lookup.js";', false],
  ];
  for (const [file, line, allowed] of cases) {
    const expected = allowed ? [] : [`${file} imports ${(/"([^"]+)"/.exec(line) as RegExpExecArray)[1]}`];
    assert.deepEqual(catalogAreaViolations(file, line), expected, `${file}: ${line}`);
  }
});

test("docs/architecture.md lists exactly the catalog's levels", () => {
  const header = architectureDoc.indexOf("| Level | Catalog areas |");
  assert.ok(header >= 0, "the table of catalog levels is missing");
  const rows = (architectureDoc.slice(header).split("\n\n")[0] as string).split("\n").slice(2);
  const documented: string[][] = [];
  for (const row of rows) {
    const [level, areas] = row.split("|").slice(1, 3) as [string, string];
    documented[Number(level.trim())] = [...areas.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string).sort();
  }
  assert.deepEqual(documented, catalogLevels.map((level) => [...level].sort()));
});

test("only the engine imports @lancedb/lancedb, and the catalog never imports fastify", () => {
  for (const file of sourceFiles(srcRoot)) {
    const relative = path.relative(srcRoot, file);
    const text = readFileSync(file, "utf8");
    if (/from\s+"@lancedb\/lancedb/.test(text) || /resolve\("@lancedb\/lancedb"\)/.test(text)) assert.ok(relative.startsWith("engine"), relative);
    if (relative.startsWith("catalog") || relative.startsWith("store") || relative.startsWith("engine")) {
      assert.ok(!/from\s+"fastify"/.test(text), `${relative} imports fastify`);
    }
  }
});

/** The engine's face: what the catalog may import of it (the Engine object, its error kinds, the upload framing). */
const engineFace = ["engine/engine.ts", "engine/engine-errors.ts", "engine/arrow-ipc.ts"];

test("the catalog reaches the engine only through its face: engine.ts, engine-errors.ts and arrow-ipc.ts", () => {
  const violations: string[] = [];
  for (const file of sourceFiles(path.join(srcRoot, "catalog"))) {
    const relative = path.relative(srcRoot, file).split(path.sep).join("/");
    for (const imported of importedPaths(readFileSync(file, "utf8"))) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(relative), imported)).replace(/\.js$/, ".ts");
      if (target.startsWith("engine/") && !engineFace.includes(target)) violations.push(`${relative} imports ${imported}`);
    }
  }
  assert.deepEqual(violations, []);
});

/** Besides the storage layer, only the CLI, the server's static files and the version (read from package.json) read the file system. */
const fileSystemUsers = ["storage/", "cli/", "server/console-assets.ts", "server/docs-assets.ts", "catalog/quiver-version.ts"];

test("only the storage layer, the CLI and the static-file server import node:fs", () => {
  const violations: string[] = [];
  for (const file of sourceFiles(srcRoot)) {
    const relative = path.relative(srcRoot, file).split(path.sep).join("/");
    if (fileSystemUsers.some((allowedPath) => relative.startsWith(allowedPath))) continue;
    if (/from\s+"(node:)?fs(\/promises)?"/.test(readFileSync(file, "utf8"))) violations.push(relative);
  }
  assert.deepEqual(violations, []);
});
