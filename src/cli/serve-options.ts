/**
 * @module Options of `quiver serve`: flags win over QUIVER_* environment variables, which win
 * over the defaults (127.0.0.1, port 2333, ./data).
 */
import { parseArgs } from "node:util";

export interface ServeOptions {
  host: string;
  port: number;
  root: string;
  logLevel: string;
  managedVersioning: boolean;
}

export const serveUsage = `Usage: quiver serve [options]

  --host HOST            address to bind (env QUIVER_HOST, default 127.0.0.1)
  --port PORT            port to listen on, 0 for any free port (env QUIVER_PORT, default 2333)
  --root DIR             folder for the metadata store and table data (env QUIVER_ROOT, default ./data)
  --log-level LEVEL      fatal, error, warn, info, debug or silent (env QUIVER_LOG_LEVEL, default info)
  --managed-versioning   clients commit versions through the catalog (env QUIVER_MANAGED_VERSIONING=1)
  -h, --help             show this help`;

export function parseServeOptions(argv: string[], env: NodeJS.ProcessEnv): ServeOptions | "help" {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: "string" },
      port: { type: "string" },
      root: { type: "string" },
      "log-level": { type: "string" },
      "managed-versioning": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) return "help";
  const portText = values.port ?? env.QUIVER_PORT ?? "2333";
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer from 0 to 65535, got '${portText}'`);
  const flag = (value: string | undefined) => value === "1" || value === "true";
  return {
    host: values.host ?? env.QUIVER_HOST ?? "127.0.0.1",
    port,
    root: values.root ?? env.QUIVER_ROOT ?? "./data",
    logLevel: values["log-level"] ?? env.QUIVER_LOG_LEVEL ?? "info",
    managedVersioning: values["managed-versioning"] ?? flag(env.QUIVER_MANAGED_VERSIONING),
  };
}
