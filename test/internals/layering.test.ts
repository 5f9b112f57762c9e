// Imports flow cli → server → catalog → {store, engine → storage}; model sits at the bottom, and
// only the storage layer touches files at table locations.
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const srcRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../src");

/** Which top-level folders each folder may import from. */
const allowed: Record<string, string[]> = {
  model: [],
  storage: [],
  store: ["model"],
  engine: ["model", "storage"],
  catalog: ["model", "store", "engine", "storage"],
  jobs: ["model", "store", "engine", "catalog"],
  auth: ["model", "store", "catalog"],
  server: ["model", "catalog", "auth", "jobs", "engine", "store"],
  client: ["model", "catalog", "store", "engine"],
  cli: ["model", "catalog", "store", "engine", "server", "auth", "jobs"],
  ui: ["model"],
  types: [],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith(".ts") ? [full] : [];
  });
}

test("every import points down the layers", () => {
  const violations: string[] = [];
  for (const file of sourceFiles(srcRoot)) {
    const layer = path.relative(srcRoot, file).split(path.sep)[0] as string;
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/from\s+"(\.[^"]+)"/g)) {
      const target = path.relative(srcRoot, path.resolve(path.dirname(file), match[1] as string)).split(path.sep)[0] as string;
      if (target !== layer && !(allowed[layer] ?? []).includes(target)) violations.push(`${path.relative(srcRoot, file)} imports ${match[1]}`);
    }
  }
  assert.deepEqual(violations, []);
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

/** Besides the storage layer, only the CLI and the server's static files read the file system. */
const fileSystemUsers = ["storage/", "cli/", "server/console-assets.ts", "server/version.ts"];

test("only the storage layer, the CLI and the static-file server import node:fs", () => {
  const violations: string[] = [];
  for (const file of sourceFiles(srcRoot)) {
    const relative = path.relative(srcRoot, file).split(path.sep).join("/");
    if (fileSystemUsers.some((allowedPath) => relative.startsWith(allowedPath))) continue;
    if (/from\s+"(node:)?fs(\/promises)?"/.test(readFileSync(file, "utf8"))) violations.push(relative);
  }
  assert.deepEqual(violations, []);
});
