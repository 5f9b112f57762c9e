/**
 * @module The web console's browser files, read once per process, at its first start-up: the
 * page, scripts and styles of `src/ui/` (plain HTML, CSS and ES modules served exactly as written,
 * so the console needs no build step and `npm run build` copies nothing), and the browser builds
 * of the libraries it uses, read from the installed packages (so their version is the one
 * `npm install` put there).
 */
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface ConsoleAsset {
  body: Buffer;
  contentType: string;
}

export interface ConsoleAssets {
  page: ConsoleAsset;
  /** The page's scripts and styles by file name; nothing else is served. */
  files: ReadonlyMap<string, ConsoleAsset>;
  /** Library files by `package/path`, e.g. `apache-arrow/Arrow.es2015.min.js`. */
  vendor: ReadonlyMap<string, ConsoleAsset>;
}

const contentTypes: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

const pageFile = "console.html";

/**
 * What the console loads from each package: files of one folder (not its subfolders) that `wanted`
 * accepts; only that folder is listed, as apache-arrow's package holds thousands of files.
 * apache-arrow's `.mjs` files import bare package names (`tslib`, `flatbuffers`), which a browser
 * resolves only through an inline import map that the CSP forbids; its single-file bundle (the
 * package's `unpkg` entry) has no imports, so the page loads it as a classic script. hyparquet is
 * plain ES modules importing one another by relative path, so its `src/` is served as it is.
 * hyparquet-writer's modules also import hyparquet by its bare name (`from 'hyparquet'`,
 * `from 'hyparquet/src/schema.js'`); those specifiers are rewritten once, here, to the paths the
 * server serves hyparquet at (see `rewriteBareImports`). Its `node.js` entry (file writing with
 * `fs`) is left out.
 */
const vendorPackages: Record<string, { folder: string; wanted: (file: string) => boolean }> = {
  "apache-arrow": { folder: "", wanted: (file) => file === "Arrow.es2015.min.js" || file === "Arrow.es2015.min.js.map" },
  hyparquet: { folder: "src", wanted: (file) => file.endsWith(".js") },
  "hyparquet-writer": { folder: "src", wanted: (file) => file.endsWith(".js") && file !== "node.js" },
};

/** Where the page loads each package's entry module and files from. */
const servedModules: Record<string, { entry: string; folder: string }> = {
  hyparquet: { entry: "/console/vendor/hyparquet/src/index.js", folder: "/console/vendor/hyparquet/" },
};

/**
 * A module's static imports of bare package names, rewritten to the served paths:
 * `from 'hyparquet'` → `from '/console/vendor/hyparquet/src/index.js'`, `from 'hyparquet/src/x.js'`
 * → `from '/console/vendor/hyparquet/src/x.js'`. A browser resolves bare names only through an import
 * map, which must be an inline script; the CSP would then need that script's hash, kept in step with
 * every package upgrade. Rewriting at start-up keeps `script-src 'self'` as it is and costs one
 * pass over a few dozen small files. A bare import of any other package, or of a file the server
 * does not serve, throws, so an upgrade that adds one fails at start-up rather than in the browser.
 */
export function rewriteBareImports(source: string, served: ReadonlySet<string>): string {
  // Statements start a line (`import … from`, `export … from`, a multi-line import's `} from`), so
  // the `@import … from 'hyparquet'` of the files' type comments are left alone.
  const statement = /^((?:import|export)\b[^'"\n]*?\bfrom\s*|import\s*|\}\s*from\s*)(['"])([^'"./][^'"]*)\2/gm;
  return source.replace(statement, (_whole, keyword: string, quote: string, specifier: string) => {
    const [name, ...rest] = specifier.split("/");
    const target = servedModules[name ?? ""];
    const url = target && (rest.length === 0 ? target.entry : `${target.folder}${rest.join("/")}`);
    if (!url || !served.has(url.slice("/console/vendor/".length))) throw new Error(`the console cannot serve the import of ${specifier}`);
    return `${keyword}${quote}${url}${quote}`;
  });
}

/** `src/ui/` of the checkout, seen from this module compiled into `dist/src/server/`. */
export function defaultConsoleFolder(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../src/ui");
}

function asset(file: string): ConsoleAsset | undefined {
  const contentType = contentTypes[path.extname(file)];
  return contentType ? { body: readFileSync(file), contentType } : undefined;
}

/** The folder holding `name`'s package.json, found from the file its main export resolves to. */
function packageFolder(name: string): string {
  const require = createRequire(import.meta.url);
  let folder = path.dirname(require.resolve(name));
  while (path.basename(folder) !== name && path.dirname(folder) !== folder) folder = path.dirname(folder);
  return folder;
}

function loadVendorFiles(): Map<string, ConsoleAsset> {
  const files = new Map<string, ConsoleAsset>();
  for (const [name, { folder, wanted }] of Object.entries(vendorPackages)) {
    const listed = path.join(packageFolder(name), folder);
    for (const entry of readdirSync(listed, { withFileTypes: true })) {
      const loaded = entry.isFile() && wanted(entry.name) ? asset(path.join(listed, entry.name)) : undefined;
      if (loaded) files.set([name, folder, entry.name].filter(Boolean).join("/"), loaded);
    }
  }
  // Packages are loaded in order, so hyparquet's files are known when the writer's are rewritten.
  const served = new Set(files.keys());
  for (const [key, file] of files) {
    if (key.startsWith("hyparquet-writer/")) files.set(key, { ...file, body: Buffer.from(rewriteBareImports(file.body.toString("utf8"), served)) });
  }
  return files;
}

/** What each console folder held when first read: the files do not change while a process serves them. */
const loadedFolders = new Map<string, ConsoleAssets>();

/** Reads the page, every `.js` / `.css` file beside it and the library files; throws if one is missing. */
export function loadConsoleAssets(folder = defaultConsoleFolder()): ConsoleAssets {
  const known = loadedFolders.get(folder);
  if (known) return known;
  const page = { body: readFileSync(path.join(folder, pageFile)), contentType: "text/html; charset=utf-8" };
  const files = new Map<string, ConsoleAsset>();
  for (const name of readdirSync(folder)) {
    const loaded = name.endsWith(".map") ? undefined : asset(path.join(folder, name));
    if (loaded) files.set(name, loaded);
  }
  const vendor = loadVendorFiles();
  if (!vendor.has("apache-arrow/Arrow.es2015.min.js") || !vendor.has("hyparquet/src/index.js") || !vendor.has("hyparquet-writer/src/index.js")) {
    throw new Error("the console's libraries (apache-arrow, hyparquet, hyparquet-writer) are not installed");
  }
  const assets = { page, files, vendor };
  loadedFolders.set(folder, assets);
  return assets;
}
