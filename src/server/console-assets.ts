/**
 * @module The web console's browser files, read once at start-up from `src/ui/`. They are plain
 * HTML, CSS and ES modules served exactly as written, so the console needs no build step and
 * `npm run build` copies nothing: a fresh checkout serves it after `npm install && npm start`.
 */
import { readFileSync, readdirSync } from "node:fs";
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
}

const contentTypes: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

const pageFile = "console.html";

/** `src/ui/` of the checkout, seen from this module compiled into `dist/src/server/`. */
export function defaultConsoleFolder(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../src/ui");
}

/** Reads the page and every `.js` / `.css` file beside it; throws if the page is missing. */
export function loadConsoleAssets(folder = defaultConsoleFolder()): ConsoleAssets {
  const page = { body: readFileSync(path.join(folder, pageFile)), contentType: "text/html; charset=utf-8" };
  const files = new Map<string, ConsoleAsset>();
  for (const name of readdirSync(folder)) {
    const contentType = contentTypes[path.extname(name)];
    if (contentType) files.set(name, { body: readFileSync(path.join(folder, name)), contentType });
  }
  return { page, files };
}
