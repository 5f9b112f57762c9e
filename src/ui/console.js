/**
 * The console's entry point: the connection settings (API key and database), the server's
 * version from /health, the namespace tree, and the router that draws the view the URL
 * fragment names.
 */
import { api, connection } from "./api.js";
import { renderJobs } from "./jobs-view.js";
import { renderNamespace } from "./namespace-view.js";
import { parseRoute } from "./routes.js";
import { renderTable } from "./table-view.js";
import { renderTree } from "./tree.js";

const main = document.getElementById("main");
const tree = document.getElementById("tree");
const status = document.getElementById("status");
const version = document.getElementById("server-version");
const form = document.getElementById("connection-form");
const keyInput = document.getElementById("api-key");
const databaseInput = document.getElementById("database");
const summary = document.getElementById("connection-summary");

/** Polite announcements for screen readers, shown in the footer too. */
function announce(text) {
  status.textContent = text;
}

const context = { announce, refreshTree: () => renderTree(tree) };

function showConnection() {
  const database = connection.database || "default database";
  summary.textContent = `${database}, ${connection.apiKey ? "API key set" : "no API key"}`;
}

async function showHealth() {
  try {
    const health = await api.health();
    version.textContent = `Quiver ${health.version}`;
  } catch (error) {
    version.textContent = `server unreachable (${error.message})`;
  }
}

function render(moveFocus) {
  // A fragment that is no route (the skip link's `#main`) keeps the view, or opens the root.
  const route = parseRoute(location.hash) ?? (main.childElementCount === 0 ? { view: "namespace", parts: [] } : null);
  if (route === null) return;
  const section = route.view === "jobs" ? "jobs" : "namespace";
  for (const link of document.querySelectorAll("[data-section]")) {
    if (link.dataset.section === section) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (route.view === "jobs") renderJobs(main);
  else if (route.view === "table") renderTable(main, route.parts, route.tab);
  else renderNamespace(main, route.parts, context);
  document.title = `${main.querySelector("h2")?.textContent ?? "Console"} · Quiver console`;
  // After a navigation, reading starts at the new view's title.
  if (moveFocus) main.querySelector(".view-title")?.focus();
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  connection.save(keyInput.value, databaseInput.value);
  showConnection();
  announce("Connection saved; reloading.");
  renderTree(tree);
  render(false);
});

document.getElementById("forget").addEventListener("click", () => {
  keyInput.value = "";
  databaseInput.value = "";
  connection.save("", "");
  showConnection();
  announce("API key and database forgotten.");
  renderTree(tree);
  render(false);
});

window.addEventListener("quiver:unauthenticated", () => {
  document.querySelector("details.connection").open = true;
});

keyInput.value = connection.apiKey;
databaseInput.value = connection.database;
showConnection();
showHealth();
renderTree(tree);
window.addEventListener("hashchange", () => render(true));
render(false);
