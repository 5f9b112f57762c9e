/**
 * A version staged as a client in managed-versioning mode leaves it for the catalog to commit,
 * shared by the scripts that replay commits (`request-walk.mjs`, `compare-answers.mjs`).
 */
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as lancedb from "@lancedb/lancedb";

/** The largest u64: Lance names manifests by this minus the version. */
const u64Max = 18446744073709551615n;

/**
 * Writes one version of the table at `location` with the LanceDB client directly, then moves its
 * manifest to Lance's staged name and puts the latest-version hint back, as a writer in
 * managed-versioning mode leaves it for the catalog to commit.
 */
export async function stageVersion(location) {
  const versions = path.join(location, "_versions");
  const manifests = () => (existsSync(versions) ? readdirSync(versions).filter((name) => /^\d{20}\.manifest$/.test(name)) : []);
  const before = new Set(manifests());
  const hint = path.join(versions, "latest_version_hint.json");
  const hintBefore = existsSync(hint) ? readFileSync(hint) : undefined;
  const db = await lancedb.connect(path.dirname(location));
  const name = path.basename(location).replace(/\.lance$/, "");
  const rows = [{ id: before.size }];
  const table = before.size > 0 ? await db.openTable(name) : undefined;
  if (table) {
    await table.add(rows);
    table.close();
  } else (await db.createTable(name, rows)).close();
  db.close();
  const [written, ...more] = manifests().filter((entry) => !before.has(entry));
  if (!written || more.length > 0) throw new Error(`expected one new manifest in ${versions}`);
  const stagedName = `${written}-${randomUUID()}`;
  writeFileSync(path.join(versions, stagedName), readFileSync(path.join(versions, written)));
  unlinkSync(path.join(versions, written));
  if (hintBefore === undefined) rmSync(hint, { force: true });
  else writeFileSync(hint, hintBefore);
  return { version: Number(u64Max - BigInt(written.slice(0, 20))), manifestPath: path.join(versions, stagedName).replace(/^\/+/, "") };
}
