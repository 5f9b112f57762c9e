/**
 * @module `quiver keys create|list|revoke` and `quiver clients create|list|revoke`: API keys
 * and OAuth clients. A secret is printed once, alone on its line on stdout (details go to
 * stderr), so `KEY=$(quiver keys create ...)` captures just the key.
 */
import {
  type CredentialInfo,
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

  quiver keys create --database NAME --role read|write|admin [--description TEXT] [--root DIR | --store URL]
  quiver keys create --all-databases --role ROLE     a deployment-wide key (its role holds on every database)
  quiver keys list [--database NAME] [--root DIR | --store URL]
  quiver keys revoke KEY_ID [--root DIR | --store URL]

${storeTargetUsage}`;

export const clientsUsage = `Usage: quiver clients <create|list|revoke> [options]

  quiver clients create --database NAME --role read|write|admin [--description TEXT] [--root DIR | --store URL]
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

function line(info: CredentialInfo): string {
  const state = info.revoked_at === null ? "live" : `revoked ${new Date(info.revoked_at).toISOString()}`;
  return [info.id, info.database ?? "*", info.role, state, info.description].join("\t");
}

export async function keysCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseAdminArgs(argv, options);
  const [action, id] = positionals;
  if (values.help || !action) return void console.log(keysUsage);
  await withStore(values, async (opened) => {
    const store = authStoreOf(opened);
    if (action === "create") {
      const created = await createApiKey(store, { database: scopeOf(values), role: values.role, description: values.description as string | undefined });
      console.error(`created API key ${created.id} (${created.role} on ${created.database ?? "every database"}); it is shown only now`);
      console.log(created.api_key);
    } else if (action === "list") {
      const database = typeof values.database === "string" ? values.database : undefined;
      for (const info of await listApiKeys(store, database)) console.log(line(info));
    } else if (action === "revoke") {
      if (!id) throw new Error("quiver keys revoke needs a KEY_ID");
      console.log(line(await revokeApiKey(store, id)));
    } else {
      throw new Error(`unknown action '${action}'\n\n${keysUsage}`);
    }
  });
}

export async function clientsCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseAdminArgs(argv, options);
  const [action, id] = positionals;
  if (values.help || !action) return void console.log(clientsUsage);
  await withStore(values, async (opened) => {
    const store = authStoreOf(opened);
    if (action === "create") {
      const created = await createOAuthClient(store, { database: scopeOf(values), role: values.role, description: values.description as string | undefined });
      console.error(`registered OAuth client (${created.role} on ${created.database ?? "every database"}); the secret is shown only now`);
      console.log(`client_id=${created.client_id}`);
      console.log(`client_secret=${created.client_secret}`);
    } else if (action === "list") {
      const database = typeof values.database === "string" ? values.database : undefined;
      for (const info of await listOAuthClients(store, database)) console.log(line(info));
    } else if (action === "revoke") {
      if (!id) throw new Error("quiver clients revoke needs a CLIENT_ID");
      console.log(line(await revokeOAuthClient(store, id)));
    } else {
      throw new Error(`unknown action '${action}'\n\n${clientsUsage}`);
    }
  });
}
