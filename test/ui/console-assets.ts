/**
 * Where the console's browser files live, for tests that load them outside a browser.
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** `src/ui/` of the checkout (tests run from `dist/test/ui/` or, bundled, `dist/test-bundle/chunks/`: the same depth). */
export const uiFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../src/ui");

/**
 * Imports one of the console's browser modules (those that touch no DOM at load). In the page,
 * apache-arrow's browser bundle defines `globalThis.Arrow` before any module runs; here the same
 * package's Node build stands in for it.
 */
export async function importUiModule(name: string): Promise<any> {
  const global = globalThis as { Arrow?: unknown };
  global.Arrow ??= await import("apache-arrow");
  return import(pathToFileURL(path.join(uiFolder, name)).href);
}
