/**
 * CSV text (RFC 4180: quoted fields may hold the delimiter, line breaks and doubled quotes) as a
 * header and rows of strings. A `.tsv` file uses tabs. Rows shorter than the header are padded
 * with empty cells; longer ones are refused, since their extra values would have no column.
 */
import { formatCount } from "./dom.js";

/** `{ header, rows }` of `text`; throws an Error naming the line of the first malformed row. */
export function parseCsv(text, delimiter = ",") {
  const records = [];
  let record = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  const endField = () => {
    record.push(field);
    field = "";
  };
  const endRecord = () => {
    endField();
    // A blank line (one empty field) is no record.
    if (record.length > 1 || record[0] !== "") records.push({ cells: record, line: recordLine });
    record = [];
    recordLine = line;
  };
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') {
        quoted = false;
      } else {
        if (char === "\n") line++;
        field += char;
      }
    } else if (char === '"' && field === "") {
      quoted = true;
    } else if (char === delimiter) {
      endField();
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && source[i + 1] === "\n") i++;
      line++;
      endRecord();
    } else {
      field += char;
    }
  }
  if (quoted) throw new Error(`line ${formatCount(recordLine)}: a quoted field is never closed`);
  if (field !== "" || record.length > 0) endRecord();
  if (records.length === 0) throw new Error("the CSV file is empty");
  const [head, ...body] = records;
  const header = head.cells.map((name) => name.trim());
  const rows = body.map(({ cells, line: at }) => {
    if (cells.length > header.length) throw new Error(`line ${formatCount(at)}: ${formatCount(cells.length)} values for ${formatCount(header.length)} columns`);
    return header.map((_, i) => cells[i] ?? "");
  });
  return { header, rows };
}
