/**
 * A table of a listing, filled page by page: a "More" button fetches the next page while the
 * server hands out a page token.
 */
import { dataTable, errorBox, h } from "./dom.js";

/** `fetchPage(token)` answers `{ rows, next }`; rows are arrays of cells (text or nodes). */
export async function pagedTable(caption, headers, fetchPage) {
  const container = h("div");
  const rows = [];
  const show = async (token) => {
    const page = await fetchPage(token);
    rows.push(...page.rows);
    const more = page.next ? h("button", { type: "button", class: "secondary" }, "More") : null;
    more?.addEventListener("click", async () => {
      more.disabled = true;
      try {
        await show(page.next);
      } catch (error) {
        container.append(errorBox(error, `Listing ${caption.toLowerCase()}`));
      }
    });
    container.replaceChildren(dataTable(caption, headers, rows), ...(more ? [more] : []));
  };
  await show(undefined);
  return container;
}
