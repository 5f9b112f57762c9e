/**
 * A blob in the grid and the row panel: its size and, when known, its media type (from the
 * column's metadata, else from its first bytes), a Download button, and in the row panel an image
 * preview. The first bytes are read with a ranged request to the blob bytes route only once the
 * cell is on screen, a few at a time, and once per blob.
 */
import { api } from "./api.js";
import { PREVIEW_TYPES, SNIFF_BYTES, blobFileName, sniffType } from "./blob-values.js";
import { formatBytes, h } from "./dom.js";
import { download } from "./export-rows.js";

/** Ranged reads of first bytes in flight at once, so a page of blobs does not crowd the server. */
const PROBES_IN_FLIGHT = 4;
/** The row panel previews images up to this size; larger ones are only downloaded. */
export const PREVIEW_LIMIT = 10 * 1024 * 1024;

const waiting = [];
let running = 0;

function pump() {
  while (running < PROBES_IN_FLIGHT && waiting.length > 0) {
    const { work, resolve, reject } = waiting.shift();
    running++;
    work()
      .then(resolve, reject)
      .finally(() => {
        running--;
        pump();
      });
  }
}

function limited(work) {
  return new Promise((resolve, reject) => {
    waiting.push({ work, resolve, reject });
    pump();
  });
}

/** What each blob's first bytes told, by its URL: `{ size, type }`, or null for a null blob. */
const probes = new Map();

/** The Content-Range total of a 206 answer. */
function rangeTotal(response) {
  const match = /\/(\d+)$/.exec(response.headers.get("content-range") ?? "");
  return match ? Number(match[1]) : undefined;
}

/** Size and media type of `blob`, from its first bytes (an empty blob has none to read). */
function probe(blob) {
  if (blob.size === 0 || !blob.url) return Promise.resolve({ size: blob.size, type: blob.type });
  if (!probes.has(blob.url)) {
    const read = limited(async () => {
      const response = await api.getTableBlobBytes(blob.parts, blob.column, blob.rowId, blob.at, `bytes=0-${SNIFF_BYTES - 1}`);
      if (response.status === 204) return null;
      const head = new Uint8Array(await response.arrayBuffer());
      return { size: rangeTotal(response) ?? blob.size, type: blob.type ?? sniffType(head) };
    });
    // A failed read is tried again the next time the blob is shown.
    read.catch(() => probes.delete(blob.url));
    probes.set(blob.url, read);
  }
  return probes.get(blob.url);
}

const describe = ({ size, type }) => [type, size === undefined ? "size unknown" : formatBytes(size)].filter(Boolean).join(" · ");

/** Saves the blob's bytes as a file named after the table, column and row. */
async function save(blob, status) {
  status.textContent = "Downloading…";
  try {
    const response = await api.getTableBlobBytes(blob.parts, blob.column, blob.rowId, blob.at);
    const bytes = await response.blob();
    const type = blob.type ?? sniffType(new Uint8Array(await bytes.slice(0, SNIFF_BYTES).arrayBuffer()));
    download(blobFileName(blob.parts[blob.parts.length - 1], blob, type), type ?? "application/octet-stream", bytes);
    status.textContent = "";
  } catch (error) {
    status.textContent = `Download failed: ${error.message}`;
  }
}

function downloadButton(blob, status) {
  if (!blob.url) return null;
  const button = h("button", { type: "button", class: "secondary small", "aria-label": `Download ${blob.column} of row ${blob.rowId}` }, "Download");
  button.addEventListener("click", () => save(blob, status));
  return button;
}

/** Fills `text` with what the blob's first bytes tell. */
function showProbe(blob, text) {
  return probe(blob).then(
    (found) => {
      text.textContent = found === null ? "null" : describe(found);
      return found;
    },
    () => null,
  );
}

let observer;
/** Probes each observed cell's blob once it scrolls into view. */
function observe(element, blob, text) {
  observer ??= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      const { blob: seen, text: shown } = entry.target.blobCell;
      showProbe(seen, shown);
    }
  });
  element.blobCell = { blob, text };
  observer.observe(element);
}

/** A grid cell's content for a blob: its size and type, and Download. */
export function blobCell(blob) {
  const text = h("span", { class: "blob-facts" }, describe(blob));
  const status = h("span", { class: "muted", role: "status" });
  const element = h("span", { class: "blob-value" }, text, downloadButton(blob, status), status);
  if (blob.url && blob.size !== 0) observe(element, blob, text);
  return element;
}

/** The row panel's content for a blob: as in the grid, plus an image preview when it is a small image. */
export function blobField(blob) {
  const text = h("span", { class: "blob-facts" }, describe(blob));
  const status = h("span", { class: "muted", role: "status" });
  const preview = h("div", { class: "blob-preview" });
  showProbe(blob, text).then(async (found) => {
    if (!found || !PREVIEW_TYPES.has(found.type) || !(found.size <= PREVIEW_LIMIT)) return;
    try {
      const response = await api.getTableBlobBytes(blob.parts, blob.column, blob.rowId, blob.at);
      const url = URL.createObjectURL(new Blob([await response.arrayBuffer()], { type: found.type }));
      const image = h("img", { src: url, alt: `${blob.column} of row ${blob.rowId}` });
      // The image keeps what it decoded; the URL is not needed once it has loaded or failed.
      const release = () => URL.revokeObjectURL(url);
      image.addEventListener("load", release, { once: true });
      image.addEventListener("error", release, { once: true });
      preview.append(image);
    } catch (error) {
      status.textContent = `Preview failed: ${error.message}`;
    }
  });
  return h("div", { class: "blob-field" }, h("span", { class: "blob-value" }, text, downloadButton(blob, status), status), preview);
}
