// The console's Access pages in headless Chromium, over a server with `--auth required`: grants on
// a table, a namespace and a database listed, granted and revoked through LanceDB's authorization
// API as a person does it, with what the grant allows checked over HTTP, and the API's refusals
// shown with the server's reason. An API key typed as a subject never stays in the page.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { apiKey, startAuthServer } from "../auth/auth-helpers.js";
import { arrowStream } from "../helpers/arrow.js";
import { type TestServer, expectError, expectJson } from "../helpers/test-server.js";
import { ConsolePage, assertClean, launchChromium } from "./headless-page.js";

let browser: Browser;
let server: TestServer;
/** Admin of database `default`: owns it, so it may grant on everything in it. */
let owner: string;

const options = { timeout: 60_000 };

const send = (key: string, route: string, body: unknown = {}) =>
  fetch(server.url + route, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) });
const grant = (key: string, subject: string, object: string, privilege: string) => send(key, "/admin/authz/acl/add", { subject, object, privilege });
const countRows = (key: string, table: string) => send(key, `/v1/table/${table}/count_rows`);

/** The grant subject of an API key `qk_<id>_<secret>`: its principal. */
function principalOf(key: string): string {
  return `p:api-key:${key.slice(3, 19)}`;
}

async function createTable(name: string): Promise<void> {
  const response = await fetch(`${server.url}/v1/table/${name}/create`, {
    method: "POST",
    headers: { "x-api-key": owner, "content-type": "application/vnd.apache.arrow.stream" },
    body: arrowStream({ id: Int32Array.from([1, 2, 3]) }),
  });
  await expectJson(response);
}

/** The console at `fragment` with `key` saved as the connection's, every confirmation accepted. */
async function openAs(t: { after(fn: () => Promise<void>): void }, key: string, fragment: string): Promise<ConsolePage> {
  const opened = await ConsolePage.open(browser, `${server.url}/console${fragment}`, { "quiver.console.apiKey": key });
  t.after(() => opened.close());
  opened.page.on("dialog", (dialog) => dialog.accept());
  return opened;
}

/** The grants table's rows as [subject, kind, privilege, action] texts. */
async function grantRows(consolePage: ConsolePage): Promise<string[][]> {
  return consolePage.page
    .getByRole("table", { name: /^Grants on / })
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => (cell.textContent ?? "").trim())));
}

before(async () => {
  browser = await launchChromium();
  server = await startAuthServer();
  owner = await apiKey(server, "default", "admin");
  await expectJson(await send(owner, "/v1/namespace/team/create"));
  for (const table of ["orders", "ledger", "refunds"]) await createTable(table);
});
after(async () => {
  await server?.close();
  await browser?.close();
});

test("Console Access tab of a table, as the database's admin → SELECT granted to a key of role none is listed and lets it count the rows; revoked in the page, the row goes and the count answers 404 code 4", options, async (t) => {
  const analyst = await apiKey(server, "default", "none");
  const subject = principalOf(analyst);
  await expectJson(await grant(owner, subject, "database:default", "USAGE"));
  await expectError(await countRows(analyst, "orders"), 404, 4);

  const consolePage = await openAs(t, owner, "#/table/orders");
  const { page } = consolePage;
  await page.getByRole("tab", { name: "Access" }).click();
  assert.match(new URL(page.url()).hash, /\?tab=access$/);
  await page.locator("#grants-heading", { hasText: "Grants on table:default:public$orders" }).waitFor();
  // Creation made the admin's principal the owner: listed, with no Revoke button.
  assert.deepEqual(await grantRows(consolePage), [[principalOf(owner), "API key", "OWNERSHIP", "transferred by granting, not revoked"]]);
  assert.deepEqual(await page.getByLabel("Privilege", { exact: true }).locator("option").evaluateAll((options) => options.map((option) => (option as any).value)), [
    "OWNERSHIP",
    "SELECT",
    "INSERT",
    "UPDATE",
    "DELETE",
  ]);

  assert.equal(await page.getByLabel("Privilege", { exact: true }).inputValue(), "SELECT", "chosen at first: not OWNERSHIP, whose grant transfers the table");
  await page.getByLabel("Subject", { exact: true }).fill(subject);
  await page.getByLabel("Privilege", { exact: true }).selectOption("SELECT");
  await page.getByRole("button", { name: "Grant", exact: true }).click();
  await page.getByRole("table", { name: /^Grants on / }).locator("tbody tr", { hasText: "SELECT" }).waitFor();
  assert.deepEqual(await grantRows(consolePage), [
    [principalOf(owner), "API key", "OWNERSHIP", "transferred by granting, not revoked"],
    [subject, "API key", "SELECT", "Revoke"],
  ].sort((a, b) => a[0]!.localeCompare(b[0]!)));
  assert.equal(await page.getByLabel("Subject", { exact: true }).inputValue(), "", "the form is cleared after a grant");
  assert.equal(await page.locator("main").getByText("2 grants read.").count(), 1);
  assert.equal(await expectJson(await countRows(analyst, "orders")), 3);

  await page.getByRole("button", { name: `Revoke SELECT from ${subject}` }).click();
  await page.locator("main").getByText("1 grant read.").waitFor();
  assert.deepEqual(await grantRows(consolePage), [[principalOf(owner), "API key", "OWNERSHIP", "transferred by granting, not revoked"]]);
  await expectError(await countRows(analyst, "orders"), 404, 4);
  assertClean(consolePage);
});

test("Console Access pages reached from the admin page and a namespace → the database's and the namespace's grants, with the privileges valid there; CREATE_TABLE granted on the namespace lets a key of role none create a table there (403 code 15 before)", options, async (t) => {
  const member = await apiKey(server, "default", "none");
  const subject = principalOf(member);
  await expectJson(await grant(owner, subject, "database:default", "USAGE"));
  const createLedger = () =>
    fetch(`${server.url}/v1/table/team$ledger/create`, {
      method: "POST",
      headers: { "x-api-key": member, "content-type": "application/vnd.apache.arrow.stream" },
      body: arrowStream({ id: Int32Array.from([1]) }),
    });
  await expectError(await createLedger(), 403, 15);

  const consolePage = await openAs(t, owner, "#/admin");
  const { page } = consolePage;
  await page.getByRole("link", { name: "Access to default" }).click();
  await page.locator("main h2", { hasText: "Access to database default" }).waitFor();
  await page.getByRole("table", { name: "Grants on database:default" }).locator("tbody tr", { hasText: subject }).waitFor();
  assert.equal(await page.locator('.sections a[aria-current="page"]').textContent(), "Admin");
  const choices = () => page.getByLabel("Privilege", { exact: true }).locator("option").evaluateAll((options) => options.map((option) => (option as any).value));
  const containerPrivileges = ["OWNERSHIP", "USAGE", "CREATE_NAMESPACE", "CREATE_TABLE", "CREATE_MATERIALIZED_VIEW", "CREATE_VIEW", "SELECT", "INSERT", "UPDATE", "DELETE"];
  assert.deepEqual(await choices(), containerPrivileges);

  await page.goto(`${server.url}/console#/ns/team`);
  await page.locator("main h2", { hasText: "Namespace team" }).waitFor();
  await page.getByRole("link", { name: "Access", exact: true }).click();
  await page.locator("main h2", { hasText: "Access to namespace team" }).waitFor();
  assert.equal(new URL(page.url()).hash, "#/access/ns/team");
  await page.locator("#grants-heading", { hasText: "Grants on namespace:default:team" }).waitFor();
  assert.deepEqual(await choices(), containerPrivileges);
  // What holds it is named, each a link to its own Access page.
  assert.equal(await page.getByRole("link", { name: "database default" }).getAttribute("href"), "#/access/database/default");

  await page.getByLabel("Subject", { exact: true }).fill(subject);
  await page.getByLabel("Privilege", { exact: true }).selectOption("CREATE_TABLE");
  await page.getByRole("button", { name: "Grant", exact: true }).click();
  await page.getByRole("table", { name: "Grants on namespace:default:team" }).locator("tbody tr", { hasText: subject }).waitFor();
  await expectJson(await createLedger());
  assert.deepEqual(await expectJson(await fetch(`${server.url}/v1/namespace/team/table/list`, { headers: { "x-api-key": member } })), { tables: ["ledger"] });
  assertClean(consolePage);
});

test("Console Access tab, refused grants → 403 code 15 for a read key, 400 code 13 for a malformed subject, 404 for a principal that does not exist, each with the server's reason; the page stays as it was", options, async (t) => {
  const reader = await apiKey(server, "default", "read");
  const consolePage = await openAs(t, reader, "#/table/ledger?tab=access");
  const { page } = consolePage;
  await page.getByRole("table", { name: "Grants on table:default:public$ledger" }).waitFor();
  const tryGrant = async (subject: string, privilege: string) => {
    const alert = page.locator("main .action-error");
    // The refusal before this one is still shown until this one's answer replaces it.
    const before = (await alert.count()) > 0 ? await alert.textContent() : null;
    await page.getByLabel("Subject", { exact: true }).fill(subject);
    await page.getByLabel("Privilege", { exact: true }).selectOption(privilege);
    await page.getByRole("button", { name: "Grant", exact: true }).click();
    await page.waitForFunction((previous) => {
      const shown = (globalThis as any).document.querySelector("main .action-error");
      return shown !== null && shown.textContent !== previous;
    }, before);
    return (await alert.textContent()) ?? "";
  };

  assert.match(await tryGrant("r:auditors", "SELECT"), /Granting SELECT failed: code 15 \(PermissionDenied\)this needs OWNERSHIP on table:default:public\$ledgerHTTP 403/);
  // Grants are checked for form before ownership: the reader sees the reason too.
  assert.match(await tryGrant("x:auditors", "INSERT"), /Granting INSERT failed: code 13 \(InvalidInput\)subject must start with one of p: P: g: G: r: a: .*HTTP 400/);
  assert.match(await tryGrant("p:api-key:0000000000000000", "SELECT"), /Granting SELECT failed: code 13 \(InvalidInput\)principal 'p:api-key:0000000000000000' does not exist.*HTTP 404/);
  assert.equal(await page.locator("main .action-error").count(), 1, "each refusal replaces the one before");
  assert.equal((await grantRows(consolePage)).length, 1, "nothing granted");
  assertClean(consolePage, [
    { method: "POST", path: "/admin/authz/acl/add", status: 403 },
    { method: "POST", path: "/admin/authz/acl/add", status: 400 },
    { method: "POST", path: "/admin/authz/acl/add", status: 404 },
  ]);
});

test("Console Access tab, an a:<API key> subject → granted to that key's principal, the field cleared and the key nowhere in the page; granted again, 409 with the server's message naming the principal", options, async (t) => {
  const analyst = await apiKey(server, "default", "none");
  await expectJson(await grant(owner, principalOf(analyst), "database:default", "USAGE"));
  const consolePage = await openAs(t, owner, "#/table/refunds?tab=access");
  const { page } = consolePage;
  await page.getByRole("table", { name: "Grants on table:default:public$refunds" }).waitFor();
  const grantByKey = async () => {
    await page.getByLabel("Subject", { exact: true }).fill(`a:${analyst}`);
    await page.getByLabel("Privilege", { exact: true }).selectOption("SELECT");
    await page.getByRole("button", { name: "Grant", exact: true }).click();
  };
  await grantByKey();
  await page.getByRole("table", { name: /^Grants on / }).locator("tbody tr", { hasText: "SELECT" }).waitFor();
  assert.deepEqual((await grantRows(consolePage)).find((row) => row[2] === "SELECT"), [principalOf(analyst), "API key", "SELECT", "Revoke"]);
  assert.equal(await page.getByLabel("Subject", { exact: true }).inputValue(), "");
  assert.match((await page.locator("#status").textContent()) ?? "", /Granted SELECT on table:default:public\$refunds to the API key's principal\./);
  assert.equal(await expectJson(await countRows(analyst, "refunds")), 3);

  await grantByKey();
  const alert = page.locator("main .action-error");
  await alert.waitFor();
  assert.match((await alert.textContent()) ?? "", new RegExp(`Granting SELECT failed: code 13 \\(InvalidInput\\)${principalOf(analyst)} already holds SELECT on table:default:public\\$refunds.*HTTP 409`));
  assert.equal(await page.getByLabel("Subject", { exact: true }).inputValue(), "", "a refused key is cleared too");
  const secret = analyst.slice(20);
  assert.equal(await page.evaluate((text) => (globalThis as any).document.body.innerText.includes(text) || (globalThis as any).document.body.innerHTML.includes(text), secret), false);
  assertClean(consolePage, [{ method: "POST", path: "/admin/authz/acl/add", status: 409 }]);
});

test("Console Access tab of a table with 101 grants beyond its owner → 100 listed, then the rest after More grants (ListAcls' continuation token)", options, async (t) => {
  await createTable("busy");
  for (let i = 1; i <= 101; i += 1) await expectJson(await grant(owner, `r:reader-${String(i).padStart(3, "0")}`, "table:default:public$busy", "SELECT"));
  const consolePage = await openAs(t, owner, "#/table/busy?tab=access");
  const { page } = consolePage;
  await page.locator("main").getByText("100 grants read (more follow).").waitFor();
  assert.equal((await grantRows(consolePage)).length, 100);
  await page.getByRole("button", { name: "More grants" }).click();
  await page.locator("main").getByText("102 grants read.").waitFor();
  const rows = await grantRows(consolePage);
  assert.equal(new Set(rows.map((row) => row[0])).size, 102);
  assert.deepEqual(rows.filter((row) => row[0] === "r:reader-101"), [["r:reader-101", "role", "SELECT", "Revoke"]]);
  assert.equal(await page.getByRole("button", { name: "More grants" }).isHidden(), true);
  assertClean(consolePage);
});
