/**
 * @module SAS tokens for one `az://` table, signed with the account key Quiver is configured
 * with, so a client reaches that table for a while without ever holding the key. On an account
 * with a hierarchical namespace the token is limited to the table's directory; on a flat account
 * a service SAS cannot name a prefix, so it reaches the table's whole container (give each
 * database its own container where that matters).
 */
import type * as AzureSdk from "@azure/storage-blob";
import type { CredentialMinter, CredentialReach, TableAccess } from "../storage-backend.js";
import type { StorageOptions } from "../storage-options.js";
import { endpointOf, parseAzureLocation } from "./azure-storage.js";

/**
 * The signed version. Its string-to-sign layout (the one from 2020-12-06 on) is the one
 * `signDirectorySas` writes, and pinning it keeps tokens the same when the SDK moves its default.
 */
const signedVersion = "2022-11-02";

/** How far back a token's start is set, so a client whose clock runs behind can use it at once. */
const clockSkewMillis = 5 * 60_000;

/** How long the hierarchical-namespace probe may take before minting goes on with container scope. */
const probeTimeoutMillis = 5_000;

/** Permissions per access, in the order the service expects: read and list, or everything a writer of Lance tables needs. */
const permissionsOf: Record<TableAccess, string> = { read: "rl", write: "racwdl" };

/** What a token is signed for; everything but the key. */
export interface SasParameters {
  containerName: string;
  /** The directory (blob-name prefix) the token is limited to and its depth (`sdd`); absent for container scope. */
  directory?: { name: string; depth: number };
  permissions: string;
  startsOn: Date;
  expiresOn: Date;
  protocol: "https" | "https,http";
}

export interface SasContext {
  /** Whether the account has a hierarchical namespace, the only kind on which directory scope exists. */
  hierarchical: boolean;
  nowMillis: number;
  ttlSeconds: number;
  allowHttp: boolean;
}

/** Whole seconds: the service reads times to the second, so an answer's expiry must not claim the fraction. */
function wholeSeconds(millis: number): Date {
  return new Date(Math.floor(millis / 1000) * 1000);
}

/** What to sign for `access` to the table at `location`. */
export function sasParametersOf(location: string, access: TableAccess, context: SasContext): SasParameters {
  if (!(context.ttlSeconds > 0)) throw new RangeError(`a credential's lifetime must be positive, not ${context.ttlSeconds} seconds`);
  const { container, name } = parseAzureLocation(location);
  const parameters: SasParameters = {
    containerName: container,
    permissions: permissionsOf[access],
    startsOn: wholeSeconds(context.nowMillis - clockSkewMillis),
    expiresOn: wholeSeconds(context.nowMillis + context.ttlSeconds * 1000),
    protocol: context.allowHttp ? "https,http" : "https",
  };
  // A table at the container's root has no directory to name.
  if (context.hierarchical && name !== "") parameters.directory = { name, depth: name.split("/").length };
  return parameters;
}

/** The token (without a leading `?`) for `parameters`, signed with the account key in `credential`. */
export function signSas(sdk: typeof AzureSdk, parameters: SasParameters, credential: AzureSdk.StorageSharedKeyCredential): string {
  if (parameters.directory) return signDirectorySas(parameters, parameters.directory, credential);
  return sdk
    .generateBlobSASQueryParameters(
      {
        version: signedVersion,
        containerName: parameters.containerName,
        permissions: sdk.ContainerSASPermissions.parse(parameters.permissions),
        startsOn: parameters.startsOn,
        expiresOn: parameters.expiresOn,
        protocol: parameters.protocol === "https" ? sdk.SASProtocol.Https : sdk.SASProtocol.HttpsAndHttp,
      },
      credential,
    )
    .toString();
}

/** Seconds-precision UTC, the form both the signature and the query carry. */
function sasTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * A directory SAS (`sr=d`). The SDK signs directory tokens only with blob permissions, which
 * lack list, although the service grants list on a directory; so this one is signed here, with
 * the service-SAS string-to-sign of `signedVersion` and the SDK's HMAC over the account key.
 */
function signDirectorySas(parameters: SasParameters, directory: { name: string; depth: number }, credential: AzureSdk.StorageSharedKeyCredential): string {
  const start = sasTime(parameters.startsOn);
  const expiry = sasTime(parameters.expiresOn);
  const stringToSign = [
    parameters.permissions,
    start,
    expiry,
    `/blob/${credential.accountName}/${parameters.containerName}/${directory.name}`,
    "", // signed identifier
    "", // signed IP range
    parameters.protocol,
    signedVersion,
    "d",
    "", // snapshot time
    "", // encryption scope
    "", // rscc
    "", // rscd
    "", // rsce
    "", // rscl
    "", // rsct
  ].join("\n");
  return new URLSearchParams({
    sv: signedVersion,
    spr: parameters.protocol,
    st: start,
    se: expiry,
    sr: "d",
    sp: parameters.permissions,
    sdd: String(directory.depth),
    sig: credential.computeHMACSHA256(stringToSign),
  }).toString();
}

/** Lance's reading of a boolean option (`allow_http`). */
function isTruthy(value: string | undefined): boolean {
  return ["1", "true", "on", "yes", "y"].includes((value ?? "").trim().toLowerCase());
}

export class AzureCredentialMinter implements CredentialMinter {
  /** The account's answer, once it has given one; a failed probe is not kept, so a later mint asks again. */
  private hierarchical: Promise<boolean> | undefined;

  constructor(
    private readonly options: StorageOptions,
    private readonly account: string,
    private readonly key: string,
  ) {}

  /**
   * A directory SAS exists only on an account with a hierarchical namespace; any other account
   * (or one that does not answer) gets container-wide tokens.
   */
  async reachOf(location: string): Promise<CredentialReach> {
    if (parseAzureLocation(location).name === "") return "container";
    const sdk = await import("@azure/storage-blob");
    return (await this.hasHierarchicalNamespace(sdk, new sdk.StorageSharedKeyCredential(this.account, this.key))) ? "prefix" : "container";
  }

  async mint(location: string, access: TableAccess, ttlSeconds: number): Promise<StorageOptions> {
    const sdk = await import("@azure/storage-blob");
    const credential = new sdk.StorageSharedKeyCredential(this.account, this.key);
    const parameters = sasParametersOf(location, access, {
      hierarchical: await this.hasHierarchicalNamespace(sdk, credential),
      nowMillis: Date.now(),
      ttlSeconds,
      allowHttp: isTruthy(this.options.allow_http),
    });
    return {
      azure_storage_sas_token: signSas(sdk, parameters, credential),
      azure_storage_account_name: this.account,
      expires_at_millis: String(parameters.expiresOn.getTime()),
    };
  }

  private hasHierarchicalNamespace(sdk: typeof AzureSdk, credential: AzureSdk.StorageSharedKeyCredential): Promise<boolean> {
    this.hierarchical ??= this.probeHierarchicalNamespace(sdk, credential).then((answer) => {
      // Container scope works on every account, only with a wider reach; a later mint asks again.
      if (answer === undefined) this.hierarchical = undefined;
      return answer ?? false;
    });
    return this.hierarchical;
  }

  /** The account's answer, or undefined when it gave none. */
  private async probeHierarchicalNamespace(sdk: typeof AzureSdk, credential: AzureSdk.StorageSharedKeyCredential): Promise<boolean | undefined> {
    try {
      // One try under a deadline: the SDK's default retries would hold a client's request for half a minute.
      const service = new sdk.BlobServiceClient(endpointOf(this.options), credential, { retryOptions: { maxTries: 1 } });
      const info = await service.getAccountInfo({ abortSignal: AbortSignal.timeout(probeTimeoutMillis) });
      return info.isHierarchicalNamespaceEnabled === true;
    } catch {
      return undefined;
    }
  }
}

/** A minter for these options, or undefined without an account key: a configured SAS token cannot sign others. */
export function azureCredentialMinterOf(options: StorageOptions): AzureCredentialMinter | undefined {
  const account = options.azure_storage_account_name;
  const key = options.azure_storage_account_key;
  return account && key ? new AzureCredentialMinter(options, account, key) : undefined;
}
