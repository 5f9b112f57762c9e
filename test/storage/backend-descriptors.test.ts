// What each backend's descriptor tells the shared code: which storage options are secrets (never
// in answers, logs or a client's map without credentials) and what the backend can do.
import assert from "node:assert/strict";
import { test } from "node:test";
import { backendDescriptors, capabilitiesOf, descriptorOf } from "../../src/storage/backend-descriptors.js";
import { lanceOptionsOf, nonSecretOptionsOf, redactedOptionsOf } from "../../src/storage/storage-options.js";

/** Every key Lance reads a credential from, by provider: its names and their aliases. */
const secretsByBackend = {
  s3: ["aws_access_key_id", "access_key_id", "aws_secret_access_key", "secret_access_key", "aws_session_token", "session_token", "aws_token", "token"],
  az: [
    "azure_storage_account_key",
    "azure_storage_access_key",
    "azure_storage_master_key",
    "access_key",
    "account_key",
    "master_key",
    "azure_storage_sas_token",
    "azure_storage_sas_key",
    "sas_token",
    "sas_key",
    "azure_storage_token",
    "bearer_token",
    "azure_client_secret",
    "azure_storage_client_secret",
    "client_secret",
  ],
  gs: [
    "google_service_account",
    "google_service_account_path",
    "service_account",
    "service_account_path",
    "google_service_account_key",
    "service_account_key",
    "google_application_credentials",
    "google_storage_token",
  ],
};

const reachOptions = { aws_endpoint: "http://127.0.0.1:9000", aws_region: "eu-west-1", azure_storage_account_name: "acct", google_base_url: "http://127.0.0.1:4443", allow_http: "true" };

test("storage options holding any backend's secret (names and aliases, any case) → redacted in answers and withheld from clients without credentials; what reaches the store is kept", () => {
  for (const [scheme, keys] of Object.entries(secretsByBackend)) {
    const secrets = Object.fromEntries(keys.flatMap((key) => [[key, `secret-${key}`], [key.toUpperCase(), `secret-${key}-upper`]]));
    const options = { ...reachOptions, ...secrets };
    assert.deepEqual(nonSecretOptionsOf(options), reachOptions, `${scheme}: a client without credentials gets none of them`);
    const redacted = redactedOptionsOf(options);
    for (const key of Object.keys(secrets)) assert.equal(redacted[key], "<redacted>", `${scheme}: ${key} is redacted`);
    assert.deepEqual(Object.fromEntries(Object.entries(redacted).filter(([key]) => key in reachOptions)), reachOptions);
  }
  assert.deepEqual(nonSecretOptionsOf({ azure_storage_account_name: "acct", tokenizer: "x", account: "a" }), { azure_storage_account_name: "acct", tokenizer: "x", account: "a" }, "a key merely resembling a secret's name is kept");
});

test("Quiver's own keys (S3 vending role and STS endpoint, GCS token-exchange endpoint) → never passed to Lance or to clients", () => {
  const own = { quiver_s3_vending_role_arn: "arn:aws:iam::1:role/r", quiver_s3_sts_endpoint: "http://127.0.0.1:1", QUIVER_GCS_STS_ENDPOINT: "http://127.0.0.1:2" };
  assert.deepEqual(lanceOptionsOf({ ...reachOptions, ...own }), reachOptions);
  assert.deepEqual(nonSecretOptionsOf({ ...reachOptions, ...own }), reachOptions);
});

test("the backend of a location: a path → local folders (shallow clones, conditional creates of their own, no client options); az://, s3://, gs:// → their object store (no clones, probed, every vending mode); another scheme → none", () => {
  assert.deepEqual(capabilitiesOf("/data/db"), { shallowClone: true, conditionalCreate: "native", vendingModes: [] });
  for (const scheme of ["az", "s3", "gs"]) {
    assert.equal(descriptorOf(`${scheme}://bucket/db`)?.scheme, scheme);
    assert.deepEqual(capabilitiesOf(`${scheme.toUpperCase()}://bucket/db`), { shallowClone: false, conditionalCreate: "probed", vendingModes: ["scoped", "static", "none"] });
  }
  assert.equal(descriptorOf("hdfs://cluster/db"), undefined);
  assert.deepEqual(backendDescriptors.map((descriptor) => descriptor.scheme), ["file", "az", "s3", "gs"]);
});
