#!/usr/bin/env node
/**
 * @module The `quiver` command.
 */
import { parseServeOptions, serveUsage } from "./serve-options.js";
import { startServer } from "./runtime.js";
import { databasesCommand } from "./databases-command.js";
import { clientsCommand, keysCommand } from "./keys-command.js";
import { migrateCommand } from "./migrate-command.js";

const usage = `Usage: quiver <command> [options]

Commands:
  serve      run the Quiver server
  databases  create, list or drop databases (tenants)
  keys       create, list or revoke API keys
  clients    create, list or revoke OAuth clients (client-credentials grant)
  migrate    apply the metadata store's pending migrations

Run 'quiver <command> --help' for a command's options.`;

async function serve(argv: string[]): Promise<void> {
  const options = parseServeOptions(argv, process.env);
  if (options === "help") {
    console.log(serveUsage);
    return;
  }
  const runtime = await startServer({
    host: options.host,
    port: options.port,
    root: options.root,
    store: options.store,
    managedVersioning: options.managedVersioning,
    auth: options.auth,
    commitAttempts: options.commitAttempts,
    data: options.storage.data,
    storageOptions: options.storage.options,
    vending: options.vending,
    allowUnsafeObjectStore: options.allowUnsafeObjectStore,
    logger: { level: options.logLevel },
  });
  console.log(`Quiver listening on ${runtime.url}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    runtime.app.log.info({ signal }, "shutting down");
    runtime.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case "serve":
      return serve(rest);
    case "databases":
      return databasesCommand(rest);
    case "keys":
      return keysCommand(rest);
    case "clients":
      return clientsCommand(rest);
    case "migrate":
      return migrateCommand(rest);
    case undefined:
    case "-h":
    case "--help":
    case "help":
      console.log(usage);
      return;
    default:
      console.error(`unknown command '${command}'\n\n${usage}`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
