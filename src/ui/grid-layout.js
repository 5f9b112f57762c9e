/**
 * The results grid's layout for one table: which columns are hidden and how wide each resized one
 * is, kept in the browser's localStorage per database and table, so a table opens as it was left
 * (in any tab, after a reload). Unreadable or missing entries mean the default: every column shown
 * at its natural width. A browser refusing storage keeps the choices for the page's life only.
 */
import { formatCount, h } from "./dom.js";

const PREFIX = "quiver.grid.";

function read(key) {
  try {
    const saved = JSON.parse(localStorage.getItem(key) ?? "{}");
    return {
      hidden: Array.isArray(saved.hidden) ? saved.hidden.filter((name) => typeof name === "string") : [],
      widths: saved.widths && typeof saved.widths === "object" ? Object.fromEntries(Object.entries(saved.widths).filter(([, px]) => Number.isFinite(px))) : {},
    };
  } catch {
    return { hidden: [], widths: {} };
  }
}

/**
 * The layout of table `parts` in `database`: `hidden` (a Set of column names), `width(name)`
 * (pixels, or undefined), `setHidden(name, hidden)`, `setWidth(name, px)`, `visible(fields)`.
 */
export function gridLayout(database, parts) {
  const key = `${PREFIX}${database || "default"}/${parts.join("$")}`;
  const saved = read(key);
  const hidden = new Set(saved.hidden);
  const widths = saved.widths;
  const save = () => {
    try {
      localStorage.setItem(key, JSON.stringify({ hidden: [...hidden], widths }));
    } catch {
      // Storage full or refused: the choice lasts until the page is left.
    }
  };
  return {
    hidden,
    width: (name) => widths[name],
    setHidden(name, isHidden) {
      if (isHidden) hidden.add(name);
      else hidden.delete(name);
      save();
    },
    setWidth(name, px) {
      widths[name] = px;
      save();
    },
    /** The indexes of `fields` that are shown. */
    visible: (fields) => fields.flatMap((field, i) => (hidden.has(field.name) ? [] : [i])),
  };
}

/**
 * A "Grid columns" menu over the grid: a checkbox per column of the answer shown, checked when the
 * column is shown. The last shown column cannot be hidden. `changed()` runs after each choice.
 */
export function columnsMenu(fields, layout, changed) {
  const shownCount = () => fields.filter((field) => !layout.hidden.has(field.name)).length;
  const summary = h("summary", {});
  const label = () => {
    const hiddenCount = fields.length - shownCount();
    // "Grid columns", apart from the form's "Columns" (which the query reads).
    summary.textContent = hiddenCount === 0 ? "Grid columns" : `Grid columns (${formatCount(hiddenCount)} hidden)`;
  };
  const boxes = fields.map((field, i) => {
    const box = h("input", { type: "checkbox", id: `grid-column-${i}`, checked: !layout.hidden.has(field.name) });
    box.addEventListener("change", () => {
      layout.setHidden(field.name, !box.checked);
      update();
      changed();
    });
    return { box, element: h("li", {}, box, h("label", { for: box.id }, field.name)) };
  });
  const update = () => {
    label();
    const last = shownCount() === 1;
    for (const { box } of boxes) box.disabled = last && box.checked;
  };
  update();
  const menu = h("details", { class: "columns-menu" }, summary, h("ul", { role: "group", "aria-label": "Shown columns" }, boxes.map((each) => each.element)));
  // The open list lies over the grid: a press elsewhere, or Escape, closes it.
  const outside = (event) => {
    if (!menu.contains(event.target)) menu.open = false;
  };
  menu.addEventListener("toggle", () => {
    if (menu.open) document.addEventListener("pointerdown", outside);
    else document.removeEventListener("pointerdown", outside);
  });
  menu.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !menu.open) return;
    menu.open = false;
    summary.focus();
  });
  return menu;
}
