/**
 * @module `quiver keys create|list|revoke` and `quiver clients create|list|revoke`: API keys
 * and OAuth clients. A secret is printed once, alone on its line on stdout (details go to
 * stderr), so `KEY=$(quiver keys create ...)` captures just the key.
 */
import type { AuthStore } from "../auth/auth-store.js";
import {
  type CredentialInfo,
  type NewCredentialRequest,
  createApiKey,
  createOAuthClient,
  listApiKeys,
  listOAuthClients,
  revokeApiKey,
  revokeOAuthClient,
} from "../auth/credentials.js";
import { parseAdminArgs, withStore } from "./admin-store.js";
import { authStoreOf } from "./auth-store-adapter.js";
import { storeTargetUsage } from "./store-flag.js";

const options = { database: { type: "string" }, role: { type: "string" }, description: { type: "string" }, "all-databases": { type: "boolean" } } as const;

export const keysUsage = `Usage: quiver keys <create|list|revoke> [options]

  quiver keys create --database NAME --role read|write|admin|none [--description TEXT] [--root DIR | --store URL]
  quiver keys create --all-databases --role ROLE     a deployment-wide key (its role holds on every database)
  quiver keys list [--database NAME] [--root DIR | --store URL]
  quiver keys revoke KEY_ID [--root DIR | --store URL]

${storeTargetUsage}`;

export const clientsUsage = `Usage: quiver clients <create|list|revoke> [options]

  quiver clients create --database NAME --role read|write|admin|none [--description TEXT] [--root DIR | --store URL]
      prints client_id and client_secret for POST /oauth/token (grant_type=client_credentials)
  quiver clients list [--database NAME] [--root DIR | --store URL]
  quiver clients revoke CLIENT_ID [--root DIR | --store URL]

${storeTargetUsage}`;

function scopeOf(values: Record<string, unknown>): string | null {
  if (values["all-databases"] === true) {
    if (values.database !== undefined) throw new Error("give either --database or --all-databases");
    return null;
  }
  if (typeof values.database !== "string") throw new Error("--database NAME (or --all-databases) is required");
  return values.database;
}

/** What a credential grants, as its creation reports it: `(role on database)`. */
function grantOf(info: CredentialInfo): string {
  return `(${info.role} on ${info.database ?? "every database"})`;
}

function line(info: CredentialInfo): string {
  const state = info.revoked_at === null ? "live" : `revoked ${new Date(info.revoked_at).toISOString()}`;
  return [info.id, info.database ?? "*", info.role, state, info.description].join("\t");
}

/** What differs between the credentials the two commands manage; the rest is shared. */
interface CredentialCommand {
  /** The command's name after `quiver`. */
  name: string;
  usage: string;
  /** How usage and errors name a credential's id. */
  idName: string;
  /** Creates one and prints it: its secret alone on stdout, the rest on stderr. */
  create(store: AuthStore, request: NewCredentialRequest): Promise<void>;
  list(store: AuthStore, database: string | undefined): Promise<CredentialInfo[]>;
  revoke(store: AuthStore, id: string): Promise<CredentialInfo>;
}

async function runCredentialCommand(command: CredentialCommand, argv: string[]): Promise<void> {
  const { values, positionals } = parseAdminArgs(argv, options);
  const [action, id] = positionals;
  if (values.help || !action) return void console.log(command.usage);
  await withStore(values, async (opened) => {
    const store = authStoreOf(opened);
    if (action === "create") {
      await command.create(store, { database: scopeOf(values), role: values.role, description: values.description as string | undefined });
    } else if (action === "list") {
      const database = typeof values.database === "string" ? values.database : undefined;
      for (const info of await command.list(store, database)) console.log(line(info));
    } else if (action === "revoke") {
      if (!id) throw new Error(`quiver ${command.name} revoke needs a ${command.idName}`);
      console.log(line(await command.revoke(store, id)));
    } else {
      throw new Error(`unknown action '${action}'\n\n${command.usage}`);
    }
  });
}

const keys: CredentialCommand = {
  name: "keys",
  usage: keysUsage,
  idName: "KEY_ID",
  async create(store, request) {
    const created = await createApiKey(store, request);
    console.error(`created API key ${created.id} ${grantOf(created)}; it is shown only now`);
    console.log(created.api_key);
  },
  list: listApiKeys,
  revoke: revokeApiKey,
};

const clients: CredentialCommand = {
  name: "clients",
  usage: clientsUsage,
  idName: "CLIENT_ID",
  async create(store, request) {
    const created = await createOAuthClient(store, request);
    console.error(`registered OAuth client ${grantOf(created)}; the secret is shown only now`);
    console.log(`client_id=${created.client_id}`);
    console.log(`client_secret=${created.client_secret}`);
  },
  list: listOAuthClients,
  revoke: revokeOAuthClient,
};

/** `quiver keys create|list|revoke`. */
export async function keysCommand(argv: string[]): Promise<void> {
  return runCredentialCommand(keys, argv);
}

/** `quiver clients create|list|revoke`. */
export async function clientsCommand(argv: string[]): Promise<void> {
  return runCredentialCommand(clients, argv);
}
