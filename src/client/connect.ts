/**
 * @module `connect(implName, properties)`: the entry point of the client (service description: "Namespace
 * implementations (client connection)").
 */
import { fileURLToPath } from "node:url";
import { openLocalCatalog } from "../catalog/runtime/local-catalog.js";
import { DirTransport } from "./dir-transport.js";
import { NamespaceError } from "./namespace-error.js";
import { type Namespace, namespaceOver } from "./namespace-client.js";
import { RestTransport } from "./rest-transport.js";
import type { ImplName } from "./transport.js";

/** Connection properties: string keys and values, as in every Lance namespace implementation. */
export type ConnectProperties = Record<string, string>;

export const implementations: readonly ImplName[] = ["dir", "rest"];
const defaultDelimiter = "$";
const headerPropertyPrefix = "headers.";
const tokenPattern = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function refuse(implName: string, message: string): NamespaceError {
  return NamespaceError.of("InvalidInput", `connect("${implName}"): ${message}`);
}

function requiredProperty(implName: string, properties: ConnectProperties, key: string, meaning: string): string {
  const value = properties[key];
  if (value === undefined || value === null) throw refuse(implName, `missing required property "${key}" (${meaning})`);
  if (typeof value !== "string" || value.trim() === "") throw refuse(implName, `property "${key}" must be a non-empty string (${meaning})`);
  return value;
}

function delimiterOf(implName: string, properties: ConnectProperties): string {
  const delimiter = properties.delimiter ?? defaultDelimiter;
  if (typeof delimiter !== "string" || delimiter === "") throw refuse(implName, 'property "delimiter" must be a non-empty string');
  return delimiter;
}

/**
 * Connects to a namespace.
 *
 * - `dir`: required `root`, a directory path or `file://` URL (created when missing). The
 *   catalog runs in-process over it with the server's layout, so a Quiver serving the same
 *   folder sees the same namespaces and tables. Optional `delimiter` (default `$`).
 * - `rest`: required `uri`, the server's base address (`http://` or `https://`). Every property
 *   `headers.<name>` is sent as the header `<name>` on every call; optional `delimiter`
 *   (default `$`), sent as `?delimiter=`.
 *
 * Throws `NamespaceError` 13 for an unknown implementation or a missing or malformed property.
 */
export async function connect(implName: ImplName | (string & {}), properties: ConnectProperties = {}): Promise<Namespace> {
  if (properties === null || typeof properties !== "object") throw refuse(implName, "properties must be an object of strings");
  switch (implName) {
    case "dir": {
      const rootProperty = requiredProperty(implName, properties, "root", "the directory that is the root namespace");
      const root = rootProperty.startsWith("file:") ? fileURLToPath(rootProperty) : rootProperty;
      const delimiter = delimiterOf(implName, properties);
      const local = await openLocalCatalog({ root });
      return namespaceOver(new DirTransport(local, delimiter));
    }
    case "rest": {
      const uri = requiredProperty(implName, properties, "uri", "the server's base address");
      let parsed: URL;
      try {
        parsed = new URL(uri);
      } catch {
        throw refuse(implName, `property "uri" is not a valid address: ${uri}`);
      }
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw refuse(implName, `property "uri" must be an http or https address: ${uri}`);
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(properties)) {
        if (!key.startsWith(headerPropertyPrefix)) continue;
        const name = key.slice(headerPropertyPrefix.length);
        if (!tokenPattern.test(name)) throw refuse(implName, `property "${key}" does not name a valid header`);
        if (typeof value !== "string" || /[\0\r\n]/.test(value)) throw refuse(implName, `property "${key}" must be a single-line string`);
        headers[name] = value;
      }
      return namespaceOver(new RestTransport({ uri: parsed.href, delimiter: delimiterOf(implName, properties), headers }));
    }
    default:
      throw NamespaceError.of("InvalidInput", `unknown namespace implementation "${implName}"; known: ${implementations.join(", ")}`);
  }
}
