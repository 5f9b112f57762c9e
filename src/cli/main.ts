#!/usr/bin/env node
/**
 * @module The `quiver` command.
 */
import module from "node:module";
import type { RelayOptions } from "./serve-supervisor.js";

// Each command loads what it runs, when it runs: `serve`'s relaying process starts the server's
// process before it loads anything else, and the server loads only what its configuration uses.

// Node 22 can keep the compiled code of every module it loads on disk (in the temporary folder),
// which takes about half of a restart's module loading away; older Node versions start without it.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const usage = `Usage: quiver <command> [options]

Commands:
  serve      run the Quiver server
  databases  create, list or drop databases (tenants)
  keys       create, list or revoke API keys
  clients    create, list or revoke OAuth clients (client-credentials grant)
  grants     add, delete or list privileges on databases, namespaces, tables and views
  roles      bind, unbind or list roles of principals and groups
  migrate    apply the metadata store's pending migrations
  backup     write the metadata store to a file, or check tables' data
  restore    load a backup into an empty metadata store
  sweep      remove table folders left by a crash, now
  tables     list, restore or purge tables kept by --drop-retention

Options:
  -h, --help     show this help
  -V, --version  print Quiver's version

Run 'quiver <command> --help' for a command's options.`;

async function serve(argv: string[]): Promise<void> {
  const { endWithSupervisor, relayServer, spawnServer, supervisedEnv } = await import("./serve-supervisor.js");
  if (process.env[supervisedEnv] === undefined && !argv.includes("--help") && !argv.includes("-h")) {
    // This process only relays: the server runs in a child whose stderr it reads (serve-supervisor.ts).
    // The child starts first, since its start-up is most of a restart's; the options are read
    // meanwhile, only to relay with, and the child reports any mistake in them itself.
    const child = spawnServer(argv);
    process.exit(await relayServer(child, relayOptionsOf(argv)));
  }
  const { parseServeOptions, serveUsage } = await import("./serve-options.js");
  const options = parseServeOptions(argv, process.env);
  if (options === "help") {
    console.log(serveUsage);
    return;
  }
  endWithSupervisor();
  // Before the runtime opens: the store, engine and storages it builds are traced from the start.
  const { batchDelayOf, startTracing, tracesUrlOf } = await import("../tracing/start-tracing.js");
  const tracesUrl = tracesUrlOf(options.otelEndpoint, process.env);
  // The SDK's warnings go to the log once there is one; before, to stderr.
  let warnOfTracing = (message: string) => console.error(message);
  const tracing = tracesUrl
    ? await startTracing({ tracesUrl, serviceName: "quiver", serviceVersion: await quiverVersion(), batchDelayMs: batchDelayOf(process.env), warn: (message) => warnOfTracing(message) })
    : undefined;
  const { startServer } = await import("./runtime.js");
  const { batchedSink, logStream, usesPretty } = await import("./log-output.js");
  const logSink = batchedSink(process.stdout);
  const log = logStream(logSink, { pretty: usesPretty(options.logFormat, process.stdout.isTTY === true), secrets: options.secrets });
  const runtime = await startServer({
    host: options.host,
    port: options.port,
    tls: options.tls,
    root: options.root,
    store: options.store,
    managedVersioning: options.managedVersioning,
    auth: options.auth,
    commitAttempts: options.commitAttempts,
    storeTimeoutMs: options.storeTimeoutSeconds === undefined ? undefined : options.storeTimeoutSeconds * 1000,
    data: options.storage.data,
    storageOptions: options.storage.options,
    objectCache: { dir: options.cacheDir, maxBytes: options.cacheBytes, copyBytes: options.cacheCopyBytes },
    vending: options.vending,
    allowUnsafeObjectStore: options.allowUnsafeObjectStore,
    maxUploadBytes: options.maxUploadBytes,
    uploadMemoryBytes: options.uploadMemoryBytes,
    rateLimits: options.rateLimits,
    idempotencyTtlMs: options.idempotencyTtlMs,
    jobs: options.jobs,
    orphanSweepIntervalMs: options.orphanSweepIntervalMs,
    dropRetentionMs: options.dropRetentionMs,
    dropPurgeIntervalMs: options.dropPurgeIntervalMs,
    eventWebhooks: options.eventWebhooks,
    eventRetentionMs: options.eventRetentionMs,
    logger: { level: options.logLevel, stream: log },
  });
  if (tracesUrl) {
    runtime.app.log.info({ traces: tracesUrl }, "sending traces over OTLP/HTTP");
    warnOfTracing = (message) => runtime.app.log.warn({ traces: tracesUrl }, `tracing: ${message}`);
  }
  // The ready line is a record like every other stdout line, written whatever the log level:
  // supervisors and scripts wait for it.
  log.write(`${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg: `Quiver listening on ${runtime.url}`, url: runtime.url })}\n`);
  logSink.flush();
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    runtime.app.log.info({ signal }, "shutting down");
    // Spans of the last requests are sent before the process ends.
    runtime
      .close()
      .then(() => tracing?.stop())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  // Renewed certificates are picked up without a restart; without TLS, SIGHUP ends the server as before.
  if (options.tls) process.on("SIGHUP", () => runtime.reloadTls());
}

async function relayOptionsOf(argv: string[]): Promise<RelayOptions> {
  try {
    const options = (await import("./serve-options.js")).parseServeOptions(argv, process.env);
    if (options !== "help") return options;
  } catch {
    // The child fails on the same options and says why.
  }
  return { logFormat: "auto", logLevel: "info", secrets: [] };
}

type Command = (argv: string[]) => Promise<void>;

async function quiverVersion(): Promise<string> {
  return (await import("../server/version.js")).quiverVersion;
}

/**
 * The admin commands, loaded on demand: each opens the store and engine, which `serve`'s
 * relaying process never needs.
 */
const adminCommands: Record<string, () => Promise<Command>> = {
  databases: async () => (await import("./databases-command.js")).databasesCommand,
  keys: async () => (await import("./keys-command.js")).keysCommand,
  clients: async () => (await import("./keys-command.js")).clientsCommand,
  grants: async () => (await import("./grants-command.js")).grantsCommand,
  roles: async () => (await import("./grants-command.js")).rolesCommand,
  migrate: async () => (await import("./migrate-command.js")).migrateCommand,
  backup: async () => (await import("./backup-command.js")).backupCommand,
  restore: async () => (await import("./restore-command.js")).restoreCommand,
  sweep: async () => (await import("./sweep-command.js")).sweepCommand,
  tables: async () => (await import("./tables-command.js")).tablesCommand,
};

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const adminCommand = command === undefined || !Object.hasOwn(adminCommands, command) ? undefined : adminCommands[command];
  if (adminCommand) return (await adminCommand())(rest);
  switch (command) {
    case "serve":
      return serve(rest);
    case undefined:
    case "-h":
    case "--help":
    case "help":
      console.log(usage);
      return;
    case "-V":
    case "--version":
    case "version":
      console.log(await quiverVersion());
      return;
    default:
      console.error(`unknown command '${command}'\n\n${usage}`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  // parseArgs names the option it does not know; the command's help lists those it does.
  const unknownOption = (error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || (error as { code?: string }).code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL";
  const command = process.argv[2];
  console.error(unknownOption ? `${message}\nRun 'quiver ${command ?? ""} --help' for the options.`.replace("quiver  --help", "quiver --help") : message);
  process.exit(1);
});
