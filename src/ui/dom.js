/**
 * Small DOM helpers. Every piece of server data enters the page as text nodes or attribute
 * values, never as markup, so a table or namespace name cannot inject anything.
 */

/** `h("a", { href: "#/x", class: "link" }, "text", child)`; `on*` attributes become listeners. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
}

/** A control after its label, for a stacked form (`h` flattens the pair into the form). */
export function labelled(text, control) {
  return [h("label", { for: control.id }, text), control];
}

/** A stacked form: its `fields` (labelled controls, hints), its submit button, then `after` (such as a result area). */
export function stackForm(fields, button, ...after) {
  return h("form", { class: "stack" }, fields, h("div", {}, h("button", { type: "submit" }, button)), after);
}

export function replaceChildren(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

/** A value as display text: bigints, nested lists and objects, long vectors shortened. */
export function formatValue(value) {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) {
    const shown = value.slice(0, 8).map(formatValue).join(", ");
    return `[${shown}${value.length > 8 ? `, … ${formatCount(value.length - 8)} more` : ""}]`;
  }
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
  if (typeof value === "object") return `{${Object.entries(value).map(([k, v]) => `${k}: ${formatValue(v)}`).join(", ")}}`;
  return String(value);
}

/**
 * A count (rows, versions, fragments, tables, …) as the whole console writes it: `1,500`, so the
 * same number reads the same on every page; `–` when it is unknown.
 */
export function formatCount(value) {
  return typeof value === "number" || typeof value === "bigint" ? value.toLocaleString("en-US") : "–";
}

export function formatBytes(bytes) {
  if (typeof bytes !== "number") return "–";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

export function formatTime(millis) {
  if (typeof millis !== "number") return "–";
  return new Date(millis).toLocaleString();
}

/**
 * A `<table>` with column headers and rows of cells (text or nodes), named `caption`. With
 * `labelledBy`, the id of the visible heading right above it that already says what the table
 * is, the heading names the table and its scrolling frame instead of a caption repeating it.
 */
export function dataTable(caption, headers, rows, { empty = "None.", labelledBy } = {}) {
  if (rows.length === 0) return h("p", { class: "muted" }, labelledBy ? sentence(empty) : `${caption}: ${empty}`);
  const name = labelledBy ? { "aria-labelledby": labelledBy } : { "aria-label": caption };
  return h(
    "div",
    { class: "table-scroll", tabindex: 0, role: "region", ...name },
    h(
      "table",
      labelledBy ? name : {},
      labelledBy ? null : h("caption", {}, caption),
      h("thead", {}, h("tr", {}, headers.map((header) => h("th", { scope: "col" }, header)))),
      h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((cell) => h("td", {}, cell))))),
    ),
  );
}

/** `none kept` → `None kept.`: an empty table's note standing alone under its heading. */
function sentence(text) {
  const trimmed = text.replace(/\.$/, "");
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}.`;
}

/** A definition list of label → value; values that are undefined are left out. */
export function facts(entries) {
  return h(
    "dl",
    { class: "facts" },
    entries.filter(([, value]) => value !== undefined).map(([label, value]) => [h("dt", {}, label), h("dd", {}, value ?? "–")]),
  );
}

/** A map of string properties as a two-column table; `labelledBy` as for `dataTable`. */
export function propertiesTable(caption, properties, { labelledBy } = {}) {
  const entries = Object.entries(properties ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return dataTable(caption, ["Key", "Value"], entries, { empty: "none set", labelledBy });
}

/**
 * An error box showing the spec's code, its name and the server's message. A refusal for want of
 * credentials (401) is a quiet line instead: the page shows one prompt for the API key, not a red
 * box per call.
 */
export function errorBox(error, doing) {
  if (error.status === 401) return h("p", { class: "muted needs-key" }, `${doing}: needs an API key.`);
  const heading = error.code === null || error.code === undefined
    ? `${doing} failed`
    : `${doing} failed: code ${error.code} (${error.codeName})`;
  return h(
    "div",
    { class: "error", role: "alert" },
    h("strong", {}, heading),
    h("p", {}, error.message || "(no message)"),
    error.status ? h("p", { class: "muted" }, `HTTP ${error.status}`) : null,
  );
}

/**
 * The error of an action a person started (a form, a button): it stays beside that action until
 * the next action on the page succeeds, which removes it (`actionSucceeded`).
 */
export function actionError(error, doing) {
  const box = errorBox(error, doing);
  box.classList.add("action-error");
  return box;
}

/** An action succeeded: the errors of earlier actions no longer describe the page. */
export function actionSucceeded() {
  for (const box of document.querySelectorAll("#main .action-error")) box.remove();
}

/** Runs `load` and shows its result in `container`, or the error, with a busy state meanwhile. */
export async function loadInto(container, doing, load) {
  container.setAttribute("aria-busy", "true");
  replaceChildren(container, h("p", { class: "muted" }, `${doing}…`));
  try {
    replaceChildren(container, await load());
  } catch (error) {
    replaceChildren(container, errorBox(error, doing));
  } finally {
    container.removeAttribute("aria-busy");
  }
}
