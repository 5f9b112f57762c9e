// What `quiver serve` loads before it listens, seen from inside its processes by a preload
// (test/helpers/loaded-modules.ts): on the default configuration (SQLite catalog, local folder,
// no authentication, tracing or webhooks) nothing of a subsystem it does not use.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { spawnServe } from "../helpers/cli-process.js";
import type { LoadedModulesReport } from "../helpers/loaded-modules.js";
import { tempRoot } from "../helpers/test-server.js";

// The preload as compiled (dist/test/helpers/), whether this file runs compiled or bundled.
const preload = pathToFileURL(new URL("../../test/helpers/loaded-modules.js", import.meta.url).pathname).href;
const projectRoot = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * The command runs from its bundle (dist/src/bin/, scripts/bundle.mjs): each file of it loaded
 * stands for the sources it holds, as the bundle's metafile lists them.
 */
function sourcesOf(report: LoadedModulesReport): LoadedModulesReport {
  const { outputs } = JSON.parse(readFileSync(path.join(projectRoot, "dist/src/bin/meta.json"), "utf8")) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  const modules = report.modules.flatMap((url) => {
    if (!url.startsWith("file:")) return [url];
    const output = outputs[path.relative(projectRoot, fileURLToPath(url))];
    return output ? Object.keys(output.inputs).map((input) => pathToFileURL(path.join(projectRoot, input)).href) : [url];
  });
  return { ...report, modules };
}

/** Packages of subsystems the default configuration does not use, or not before the first request that needs them. */
const unusedSubsystems = [
  "@opentelemetry/", // tracing
  "jose", // tokens: loaded with the first bearer token
  "hyparquet",
  "hyparquet-writer",
  "cloudevents", // change events: loaded with the first change
  "pg", // the PostgreSQL store
  "standardwebhooks",
  "@aws-sdk/",
  "@azure/",
  "@google-cloud/",
  "@lancedb/", // the Lance binding: loaded with the first table opened
];

/** The packages of `subsystems` among the modules of `report`, one entry per package. */
function packagesOf(report: LoadedModulesReport, subsystems: string[]): string[] {
  const found = new Set<string>();
  for (const url of report.modules) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (!match) continue;
    const name = match[1] as string;
    if (subsystems.some((prefix) => (prefix.endsWith("/") ? name.startsWith(prefix) : name === prefix))) found.add(name);
  }
  return [...found].sort();
}

/** Starts `quiver serve` on `root` with the preload and returns the reports of its two processes once it has stopped. */
async function reportsOfOneStart(root: string): Promise<{ server: LoadedModulesReport; relay: LoadedModulesReport }> {
  const reportDir = mkdtempSync(path.join(tmpdir(), "quiver-modules-"));
  try {
    const server = await spawnServe(["--port", "0", "--root", root], {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${preload}`.trim(),
      QUIVER_REPORT_LOADED_MODULES: reportDir,
      OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
    });
    await server.stop("SIGTERM");
    const reports = readdirSync(reportDir)
      .filter((name) => name.endsWith(".json"))
      .map((name) => JSON.parse(readFileSync(path.join(reportDir, name), "utf8")) as LoadedModulesReport);
    const serverReport = reports.find((report) => report.role === "server");
    const relayReport = reports.find((report) => report.role === "relay");
    assert.ok(serverReport && relayReport, `a report from each process, got ${reports.map((report) => report.role).join(", ")}`);
    return { server: sourcesOf(serverReport), relay: sourcesOf(relayReport) };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

test("quiver serve on the default configuration, restarted on its root, listens without loading tracing, tokens, Parquet, CloudEvents, PostgreSQL, webhooks, object-store SDKs or the Lance binding", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  // The first start creates the root and the default database, whose change event is the first; the restart records none.
  await reportsOfOneStart(root);
  const { server, relay } = await reportsOfOneStart(root);
  assert.ok(server.modules.some((url) => url.endsWith("/dist/src/cli/runtime.js")), "the report covers the server's start-up");
  assert.deepEqual(packagesOf(server, unusedSubsystems), [], "packages the server process loaded before listening");
  assert.deepEqual(packagesOf(relay, unusedSubsystems), [], "packages the relaying process loaded");
});

test("quiver serve's relaying process loads none of the server's store, engine or HTTP packages", async (t) => {
  const root = tempRoot();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const { relay } = await reportsOfOneStart(root);
  assert.deepEqual(packagesOf(relay, ["kysely", "@sinclair/", "fastify", "better-sqlite3", "@lancedb/", "apache-arrow", "apache-arrow-21", "ajv"]), []);
});
