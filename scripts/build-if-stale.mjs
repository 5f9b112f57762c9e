// Runs the TypeScript build only when a source is newer than the last build, so `npm start`
// after `npm install` (which builds) starts at once, and after an edit still runs fresh code.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** What the build reads: tsconfig.json's `include` folders and the files that configure it. */
const sources = ["src", "test", "bench", "examples", "tsconfig.json", "package.json"];
/**
 * Written at the end of every build (scripts/bundle.mjs), even one that changed nothing: tsc's own
 * record is left alone when nothing it emits changed, so a source touched since would rebuild on
 * every start, and a rebuild would replace the bundles under a test run using them.
 */
const lastBuild = path.join(root, "dist", "src", "bin", "meta.json");

function newestChange(entry) {
  const stats = statSync(entry, { throwIfNoEntry: false });
  if (!stats) return 0;
  if (!stats.isDirectory()) return entry.endsWith(".ts") || entry.endsWith(".json") ? stats.mtimeMs : 0;
  return readdirSync(entry).reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), 0);
}

const built = statSync(lastBuild, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const changed = Math.max(...sources.map((source) => newestChange(path.join(root, source))));
if (changed > built) {
  console.error(built === 0 ? "building (first start)..." : "sources changed since the last build; building...");
  const { status } = spawnSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
  if (status !== 0) process.exit(status ?? 1);
}
