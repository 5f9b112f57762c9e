// What `quiver restore` refuses to bring into a store, and what `quiver backup` says of the secrets
// it writes: a backup edited to point tables or a database at folders outside the deployment's
// data roots is refused whole (a later drop would delete those folders); a backup of a database
// whose storage options hold an account key is said to hold it in clear, or is encrypted under
// the operator's key and restored only with it. Real processes: the CLI, the server, Azurite.
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { gunzipSync, gzipSync } from "node:zlib";
import { runCli, spawnServe } from "../helpers/cli-process.js";
import { sharedAzurite } from "../helpers/test-backend.js";
import { expectError, expectJson, tempRoot } from "../helpers/test-server.js";

interface BackupRecord {
  table?: string;
  row?: Record<string, unknown>;
}

/** The records of a plain backup file. */
function recordsOf(file: string): BackupRecord[] {
  return gunzipSync(readFileSync(file))
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as BackupRecord);
}

/** Writes the backup `file` into `to` after `edit` changed its records. */
function rewriteBackup(file: string, to: string, edit: (records: BackupRecord[]) => void): void {
  const records = recordsOf(file);
  edit(records);
  writeFileSync(to, gzipSync(records.map((record) => JSON.stringify(record)).join("\n")));
}

function rowOf(records: BackupRecord[], table: string, name: string): Record<string, unknown> {
  const found = records.find((record) => record.table === table && record.row?.name === name)?.row;
  assert.ok(found, `${table} row ${name} in the backup`);
  return found;
}

const escaped = (text: string) => text.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&");

function post(url: string, route: string, body: unknown = {}): Promise<Response> {
  return fetch(`${url}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

/** Serves `root`, declares `tables` there, stops and backs it up; answers the backup file. */
async function backupOfDeclared(t: { after(fn: () => Promise<void>): void }, root: string, tables: string[]): Promise<string> {
  const server = await spawnServe(["--port", "0", "--root", root]);
  t.after(() => server.stop("SIGKILL").then(() => undefined));
  for (const table of tables) await expectJson(await post(server.url, `/v1/table/${table}/declare`));
  await server.stop();
  const file = path.join(root, "catalog.backup");
  const backedUp = await runCli(["backup", "--to", file, "--root", root]);
  assert.equal(backedUp.code, 0, backedUp.stderr);
  return file;
}

describe("quiver restore checks and backup secrets", { concurrency: true }, () => {
  test("restore of a backup edited to point tables at folders outside their database (directly, and through a link) → refused naming each table and why, exit code 1, nothing restored; a drop of the tables on the restored root is 404 and the folders stay", { timeout: 120_000 }, async (t) => {
    const root = tempRoot();
    const canary = tempRoot("quiver-canary-");
    const target = tempRoot();
    t.after(() => {
      for (const dir of [root, canary, target]) rmSync(dir, { recursive: true, force: true });
    });
    writeFileSync(path.join(canary, "keep.txt"), "the operator's files");
    mkdirSync(path.join(canary, "linked.lance"));
    writeFileSync(path.join(canary, "linked.lance", "keep.txt"), "the operator's files");

    const file = await backupOfDeclared(t, root, ["victim", "linked"]);

    // `victim` points straight at the canary folder; `linked` at a folder inside its database's
    // storage root as written, which a link there leads out of.
    const data = path.join(root, "databases");
    const link = path.join(data, "default", "escape");
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(canary, link);
    const edited = path.join(root, "edited.backup");
    rewriteBackup(file, edited, (records) => {
      Object.assign(rowOf(records, "tables", "victim"), { location: canary, managed_location: 1 });
      Object.assign(rowOf(records, "tables", "linked"), { location: path.join(link, "linked.lance"), managed_location: 1 });
    });

    const restored = await runCli(["restore", "--from", edited, "--root", target, "--data", data]);
    assert.equal(restored.code, 1, restored.stdout);
    assert.match(restored.stderr, /the backup names locations this deployment does not let its databases and tables have; nothing was restored/);
    assert.match(restored.stderr, new RegExp(`table victim of database default \\(storage root ${escaped(path.join(data, "default"))}\\): location '${escaped(canary)}' is outside the database's storage root`));
    assert.match(restored.stderr, new RegExp(`table linked of database default .*: location '${escaped(path.join(link, "linked.lance"))}' is outside the database's storage root`));
    assert.doesNotMatch(restored.stdout, /restored \d+ rows/);
    assert.equal(existsSync(path.join(target, "quiver.sqlite")), false, "the target store was not touched");

    // Had the rows got in, a drop would delete the folders: on the restored root there is no such table.
    const onTarget = await spawnServe(["--port", "0", "--root", target, "--data", data]);
    t.after(() => onTarget.stop("SIGKILL").then(() => undefined));
    await expectError(await post(onTarget.url, "/v1/table/victim/drop"), 404, 4);
    await expectError(await post(onTarget.url, "/v1/table/linked/drop"), 404, 4);
    await onTarget.stop();
    assert.equal(readFileSync(path.join(canary, "keep.txt"), "utf8"), "the operator's files");
    assert.equal(readFileSync(path.join(canary, "linked.lance", "keep.txt"), "utf8"), "the operator's files");
  });

  test("restore of a backup edited to give a database a location outside the data location → refused naming the database, nothing restored; the unedited backup restores, and with --allow-root naming it the database's own location is accepted", { timeout: 120_000 }, async (t) => {
    const root = tempRoot();
    const elsewhere = tempRoot("quiver-elsewhere-");
    const targets = [tempRoot(), tempRoot(), tempRoot()];
    t.after(() => {
      for (const dir of [root, elsewhere, ...targets]) rmSync(dir, { recursive: true, force: true });
    });
    const created = await runCli(["databases", "create", "analytics", "--root", root]);
    assert.equal(created.code, 0, created.stderr);
    const file = path.join(root, "catalog.backup");
    const backedUp = await runCli(["backup", "--to", file, "--root", root]);
    assert.equal(backedUp.code, 0, backedUp.stderr);
    const edited = path.join(root, "edited.backup");
    rewriteBackup(file, edited, (records) => {
      rowOf(records, "databases", "analytics").storage_root = elsewhere;
    });
    const data = path.join(root, "databases");

    const [refused, plain, allowed] = await Promise.all([
      runCli(["restore", "--from", edited, "--root", targets[0] as string, "--data", data]),
      runCli(["restore", "--from", file, "--root", targets[1] as string, "--data", data]),
      runCli(["restore", "--from", edited, "--root", targets[2] as string, "--data", data, "--allow-root", elsewhere]),
    ]);
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(refused.stderr, new RegExp(`database analytics: its location '${escaped(elsewhere)}' is outside the deployment's data roots \\(${escaped(data)}\\)`));
    assert.match(refused.stderr, /--allow-root/);
    assert.equal(existsSync(path.join(targets[0] as string, "quiver.sqlite")), false, "the target store was not touched");

    assert.equal(plain.code, 0, plain.stderr + plain.stdout);
    assert.equal(allowed.code, 0, allowed.stderr + allowed.stdout);
    const listed = await runCli(["databases", "list", "--root", targets[2] as string, "--data", data]);
    assert.match(listed.stdout, new RegExp(`^analytics\\t.*\\t${escaped(elsewhere)}$`, "m"));
  });

  test("restore of a backup edited so a version awaiting finalizing names a staged manifest outside its table → refused naming the version and why, exit code 1, nothing restored; the file stays", { timeout: 120_000 }, async (t) => {
    const root = tempRoot();
    const canary = tempRoot("quiver-canary-");
    const target = tempRoot();
    t.after(() => {
      for (const dir of [root, canary, target]) rmSync(dir, { recursive: true, force: true });
    });
    // Named like a staged manifest: finalizing would copy it into the table and then delete it.
    const staged = path.join(canary, "_versions", "1.manifest-operator");
    mkdirSync(path.dirname(staged));
    writeFileSync(staged, "the operator's file");

    const file = await backupOfDeclared(t, root, ["victim"]);

    const edited = path.join(root, "edited.backup");
    rewriteBackup(file, edited, (records) => {
      const table = rowOf(records, "tables", "victim");
      const version = {
        table_id: table.id,
        branch: "",
        version: 1,
        manifest_path: path.join(String(table.location), "_versions", "18446744073709551614.manifest"),
        staged_path: staged,
        manifest_size: null,
        e_tag: null,
        naming_scheme: "V2",
        metadata: "{}",
        timestamp_millis: Date.now(),
        transaction_id: null,
      };
      const end = records.find((record) => "end" in record) as { end: Record<string, number> };
      end.end.table_versions = (end.end.table_versions ?? 0) + 1;
      records.splice(records.findIndex((record) => record.row === table) + 1, 0, { table: "table_versions", row: version });
    });

    const data = path.join(root, "databases");
    const restored = await runCli(["restore", "--from", edited, "--root", target, "--data", data]);
    assert.equal(restored.code, 1, restored.stdout);
    assert.match(restored.stderr, /nothing was restored/);
    assert.match(restored.stderr, new RegExp(`version 1 of main of table victim: staged_path '${escaped(staged)}' is not inside the table's location`));
    assert.doesNotMatch(restored.stdout, /restored \d+ rows/);
    assert.equal(existsSync(path.join(target, "quiver.sqlite")), false, "the target store was not touched");
    assert.equal(readFileSync(staged, "utf8"), "the operator's file");
  });

  test("backup of a database whose storage options hold an account key → plain: a warning naming the database and the key; with --encrypt-key-file: no byte of the key in the file, restored with the key, refused with another key and without one", { timeout: 180_000 }, async (t) => {
    const azurite = await sharedAzurite();
    const root = tempRoot();
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const location = `az://vault${randomUUID().replaceAll("-", "").slice(0, 16)}/vault`;
    const options = Object.entries(azurite.storageOptions).flatMap(([key, value]) => ["--storage-option", `${key}=${value}`]);
    const created = await runCli(["databases", "create", "vault", "--root", root, "--data", location, ...options]);
    assert.equal(created.code, 0, created.stderr);
    const accountKey = azurite.storageOptions.azure_storage_account_key as string;

    const keyFile = path.join(root, "backup.key");
    writeFileSync(keyFile, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
    const otherKeyFile = path.join(root, "other.key");
    writeFileSync(otherKeyFile, randomBytes(32).toString("base64"), { mode: 0o600 });
    const plainFile = path.join(root, "plain.backup");
    const sealedFile = path.join(root, "sealed.backup");
    const [plain, sealed] = await Promise.all([
      runCli(["backup", "--to", plainFile, "--root", root]),
      runCli(["backup", "--to", sealedFile, "--root", root, "--encrypt-key-file", keyFile]),
    ]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stderr, /warning: .*plain\.backup holds storage credentials in clear, in the storage options of database vault \(azure_storage_account_key\).*--encrypt-key-file/);
    assert.ok(gunzipSync(readFileSync(plainFile)).includes(accountKey), "the plain backup holds the account key");
    assert.equal(sealed.code, 0, sealed.stderr);
    assert.match(sealed.stdout, /backed up .* to .*sealed\.backup, encrypted: .*databases 2/);
    assert.doesNotMatch(sealed.stderr, /warning/);
    const sealedBytes = readFileSync(sealedFile);
    for (const bytes of [Buffer.from(accountKey), Buffer.from(accountKey, "base64")]) assert.equal(sealedBytes.includes(bytes), false, "no byte sequence of the key in the encrypted file");
    assert.throws(() => gunzipSync(sealedBytes), "the encrypted file is not a readable gzip stream");

    const targets = [tempRoot(), tempRoot(), tempRoot(), tempRoot()];
    t.after(() => {
      for (const dir of targets) rmSync(dir, { recursive: true, force: true });
    });
    const tampered = path.join(root, "tampered.backup");
    const flipped = Buffer.from(sealedBytes);
    flipped[flipped.length - 40] = (flipped[flipped.length - 40] as number) ^ 1;
    writeFileSync(tampered, flipped);
    const restoreArgs = (from: string, target: string) => ["restore", "--from", from, "--root", target, "--allow-root", location];
    const [right, wrong, none, altered] = await Promise.all([
      runCli([...restoreArgs(sealedFile, targets[0] as string), "--encrypt-key-file", keyFile]),
      runCli([...restoreArgs(sealedFile, targets[1] as string), "--encrypt-key-file", otherKeyFile]),
      runCli(restoreArgs(sealedFile, targets[2] as string)),
      runCli([...restoreArgs(tampered, targets[3] as string), "--encrypt-key-file", keyFile]),
    ]);
    assert.equal(right.code, 0, right.stderr + right.stdout);
    assert.match(right.stdout, /restored \d+ rows from .*sealed\.backup/);
    const listed = await runCli(["databases", "list", "--root", targets[0] as string]);
    assert.match(listed.stdout, new RegExp(`^vault\\t.*\\t${escaped(location)}$`, "m"));

    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /sealed\.backup cannot be decrypted with the key given: the key is not the one it was written with, or the file was altered/);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /sealed\.backup is an encrypted backup: give the key file it was written with \(--encrypt-key-file\)/);
    assert.equal(altered.code, 1);
    assert.match(altered.stderr, /tampered\.backup cannot be decrypted with the key given/);
    for (const target of targets.slice(1)) assert.equal(existsSync(path.join(target, "quiver.sqlite")), false, "nothing restored");
  });
});
