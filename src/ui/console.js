/**
 * The console's entry point: the connection settings (API key and database), what the server
 * is and serves (its capability document: version, features, the database's managed
 * versioning), the namespace tree, and the router that draws the view the URL fragment names.
 */
import { renderAccess } from "./access-view.js";
import { renderAdmin } from "./admin-view.js";
import { api, connection } from "./api.js";
import { actionSucceeded, formatCount, h } from "./dom.js";
import { renderJobs } from "./jobs-view.js";
import { renderEvents } from "./events-view.js";
import { renderNamespace } from "./namespace-view.js";
import { parseRoute } from "./routes.js";
import { renderTable } from "./table-view.js";
import { renderHome } from "./home-view.js";
import { revealInTree, renderTree } from "./tree.js";

const main = document.getElementById("main");
const tree = document.getElementById("tree");
const status = document.getElementById("status");
const version = document.getElementById("server-version");
const panel = document.querySelector("details.connection");
const form = document.getElementById("connection-form");
const keyInput = document.getElementById("api-key");
const databaseInput = document.getElementById("database");
const databaseNames = document.getElementById("database-names");
const summary = document.getElementById("connection-summary");
const authPrompt = document.getElementById("auth-prompt");

/** How long a message stays in the status bar. */
const MESSAGE_MS = 8000;
let messageTimer;
/** Set by a message whose action goes on to another page: it stays for that one navigation. */
let keepThroughNavigation = false;

/**
 * Polite announcements for screen readers, shown in the footer for a few seconds and until the
 * next navigation (the one after it, with `navigating`, for an action that opens another page
 * itself). Every announcement reports a success, so earlier actions' errors go.
 */
function announce(text, { navigating = false } = {}) {
  actionSucceeded();
  status.textContent = text;
  keepThroughNavigation = navigating;
  clearTimeout(messageTimer);
  messageTimer = setTimeout(() => {
    status.textContent = "";
  }, MESSAGE_MS);
}

/** A navigation ends the message, unless the action it reports caused the navigation. */
function clearMessage() {
  if (keepThroughNavigation) {
    keepThroughNavigation = false;
    return;
  }
  clearTimeout(messageTimer);
  status.textContent = "";
}

/** Draws the tree anew, opened down to what the page shows. */
function drawTree() {
  renderTree(tree);
  followPage();
}

/** Opens the tree down to the namespace or table the URL names and marks it. */
function followPage() {
  const route = parseRoute(location.hash);
  if (route?.view === "table") revealInTree(tree, route.parts, { table: true });
  else if (route?.view === "namespace" || (route?.view === "access" && route.kind === "namespace")) revealInTree(tree, route.parts, { table: false });
  else revealInTree(tree, null);
}

const context = { announce, refreshTree: drawTree };

/** Names the database every call uses: the one entered, else the server's `default`. */
function showConnection() {
  summary.textContent = `database ${connection.database || "default"}, ${connection.apiKey ? "API key set" : "no API key"}`;
}

/** The features a capability document says are on, in words. */
function featuresOf(capabilities) {
  const on = [];
  if (capabilities.database) on.push(`database ${capabilities.database.name}: managed versioning ${capabilities.database.managed_versioning ? "on" : "off"}`);
  if (capabilities.storage) on.push(`credential vending ${capabilities.storage.credential_vending}`);
  if (capabilities.storage?.object_stores.length) on.push(`object stores ${capabilities.storage.object_stores.join(", ")}`);
  on.push(`multipart writes ${capabilities.features.multipart_writes ? "on" : "off"}`);
  on.push(`${formatCount(capabilities.operations.length)} operations`);
  return on.join("; ");
}

/** The server's version and features; a server without the capability document still shows its version. */
async function showServer() {
  try {
    const capabilities = await api.capabilities();
    const managed = capabilities.database?.managed_versioning ? " · managed versioning" : "";
    version.textContent = `Quiver ${capabilities.version}${managed}`;
    version.title = featuresOf(capabilities);
  } catch (error) {
    try {
      version.textContent = `Quiver ${(await api.health()).version}`;
    } catch {
      version.textContent = `server unreachable (${error.message})`;
    }
  }
}

/** Set while the server refuses the connection's credentials, so they are not tried again unasked. */
let refused = false;

/** Offers the databases the key may see as suggestions; a key that may see none gets none. */
async function suggestDatabases() {
  if (refused) return;
  try {
    const { databases } = await api.listDatabases();
    databaseNames.replaceChildren(...databases.map((database) => h("option", { value: database.name })));
  } catch {
    databaseNames.replaceChildren();
  }
}

function render(moveFocus) {
  // A fragment that is no route (the skip link's `#main`) keeps the view, or opens the root.
  const route = parseRoute(location.hash) ?? (main.childElementCount === 0 ? { view: "namespace", parts: [] } : null);
  if (route === null) return;
  if (moveFocus) clearMessage();
  // A database's Access page is reached from the admin page, a namespace's from the namespace.
  const section = ["jobs", "admin", "home", "events"].includes(route.view) ? route.view : route.view === "access" && route.kind === "database" ? "admin" : "namespace";
  for (const link of document.querySelectorAll("[data-section]")) {
    if (link.dataset.section === section) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (route.view === "jobs") renderJobs(main);
  else if (route.view === "home") renderHome(main, context);
  else if (route.view === "events") renderEvents(main);
  else if (route.view === "admin") renderAdmin(main, context);
  else if (route.view === "access") renderAccess(main, route, context);
  else if (route.view === "table") renderTable(main, route.parts, route.tab, context);
  else renderNamespace(main, route.parts, context);
  document.title = `${main.querySelector("h2")?.textContent ?? "Console"} · Quiver console`;
  // After a navigation, reading starts at the new view's title.
  if (moveFocus) main.querySelector(".view-title")?.focus();
  followPage();
}

function reconnect(message) {
  authPrompt.hidden = true;
  authPrompt.removeAttribute("role");
  showConnection();
  showServer();
  renderTree(tree);
  render(false);
  announce(message);
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  connection.save(keyInput.value, databaseInput.value);
  refused = false;
  panel.open = false;
  panel.querySelector("summary").focus();
  reconnect(`Connection saved: database ${connection.database || "default"}.`);
});

document.getElementById("forget").addEventListener("click", () => {
  keyInput.value = "";
  databaseInput.value = "";
  connection.save("", "");
  refused = false;
  reconnect("API key and database forgotten; using the default database.");
});

panel.addEventListener("toggle", () => {
  if (panel.open) suggestDatabases();
});

/** The one prompt a server that wants a key gets, whichever calls it refused. */
window.addEventListener("quiver:unauthenticated", () => {
  if (!refused) panel.open = true;
  refused = true;
  authPrompt.querySelector("strong").textContent = connection.apiKey ? "The server refused this API key." : "This server needs an API key.";
  // An alert only while shown, so a page that needs no key has none.
  authPrompt.setAttribute("role", "alert");
  authPrompt.hidden = false;
});

document.getElementById("auth-prompt-open").addEventListener("click", () => {
  panel.open = true;
  keyInput.focus();
});

keyInput.value = connection.apiKey;
databaseInput.value = connection.database;
showConnection();
showServer();
renderTree(tree);
window.addEventListener("hashchange", () => render(true));
render(false);
