/**
 * Small SVG charts drawn by hand (a charting library would outweigh the whole console): a line
 * chart with a marked point per value, vertical bars, and horizontal stacked bars. Each chart is
 * an image with a text label for screen readers, each point or bar carries a `<title>` with its
 * exact value, and colours come from classes in console.css (the CSP forbids inline styles).
 */
import { formatCount } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 560;
const HEIGHT = 200;
const MARGIN = { top: 24, right: 16, bottom: 38, left: 64 };
const PLOT_WIDTH = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;

function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) element.setAttribute(name, String(value));
  add(element, children);
  return element;
}

/** Appends nodes given alone or in (nested) lists, skipping null and undefined. */
function add(element, ...children) {
  for (const child of children.flat(Infinity)) if (child !== null && child !== undefined) element.append(child);
}

/** A short number for an axis: 1.2k, 3.4M. */
export function shortNumber(value) {
  const magnitude = Math.abs(value);
  if (magnitude >= 1e9) return `${Number((value / 1e9).toPrecision(3))}G`;
  if (magnitude >= 1e6) return `${Number((value / 1e6).toPrecision(3))}M`;
  if (magnitude >= 1e3) return `${Number((value / 1e3).toPrecision(3))}k`;
  return String(Number(value.toPrecision(3)));
}

/** The chart's frame: an image labelled `title`, a y axis from 0 to `max`, and an x-axis caption. */
function frame(title, max, xLabel, format) {
  // A half-way tick only where it is a whole number or the scale is large: no "0.5 rows".
  const values = Number.isInteger(max / 2) || max > 10 ? [0, max / 2, max] : [0, max];
  const ticks = values.map((value) => {
    const y = MARGIN.top + PLOT_HEIGHT - (value / max) * PLOT_HEIGHT;
    return [
      svg("line", { class: "grid", x1: MARGIN.left, x2: MARGIN.left + PLOT_WIDTH, y1: y, y2: y }),
      svg("text", { class: "tick", x: MARGIN.left - 6, y: y + 4, "text-anchor": "end" }, format(value)),
    ];
  });
  return svg(
    "svg",
    { class: "chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": title },
    svg("title", {}, title),
    ticks,
    svg("text", { class: "axis-label", x: MARGIN.left + PLOT_WIDTH / 2, y: HEIGHT - 4, "text-anchor": "middle" }, xLabel),
  );
}

function figure(title, chart) {
  const caption = document.createElement("figcaption");
  caption.textContent = title;
  const element = document.createElement("figure");
  element.className = "chart-figure";
  element.append(caption, chart);
  return element;
}

/** Up to `count` evenly spread entries of `items`, always the first and the last. */
function spread(items, count) {
  if (items.length <= count) return items;
  const step = (items.length - 1) / (count - 1);
  return Array.from({ length: count }, (_, i) => items[Math.round(i * step)]);
}

/** A marker above a marked point or bar (a tag): a small flag with the mark's text as its title. */
function flag(x, y, mark) {
  return svg("g", { class: "mark" }, svg("path", { d: `M${x},${y - 4} L${x},${y - 18} L${x + 9},${y - 14} L${x},${y - 10}` }), svg("title", {}, `Tag ${mark}`));
}

/**
 * A line through `points` ({x, y, label, mark}), x placed in proportion to its value, with a
 * circle and a tooltip at each point, a flag over each marked one, and x ticks spread evenly.
 */
export function lineChart(title, points, { xLabel, format = shortNumber }) {
  const max = Math.max(1, ...points.map((p) => p.y));
  const xs = points.map((p) => p.x);
  const [low, high] = [Math.min(...xs), Math.max(...xs)];
  const xOf = (x) => MARGIN.left + (high === low ? PLOT_WIDTH / 2 : ((x - low) / (high - low)) * PLOT_WIDTH);
  const yOf = (y) => MARGIN.top + PLOT_HEIGHT - (y / max) * PLOT_HEIGHT;
  const chart = frame(title, max, xLabel, format);
  const sorted = [...points].sort((a, b) => a.x - b.x);
  // Many points make circles a smear: past a hundred only the marked ones keep theirs.
  const radius = sorted.length > 100 ? 0 : sorted.length > 30 ? 2.5 : 4;
  add(
    chart,
    sorted.length > 1 ? svg("polyline", { class: "series-0 line", points: sorted.map((p) => `${xOf(p.x)},${yOf(p.y)}`).join(" ") }) : null,
    sorted.map((p) =>
      svg("circle", { class: `series-0 point${p.mark ? " marked" : ""}`, cx: xOf(p.x), cy: yOf(p.y), r: p.mark ? Math.max(radius, 4) : radius || 1.5, "data-x": p.x }, svg("title", {}, p.label)),
    ),
    sorted.filter((p) => p.mark).map((p) => flag(xOf(p.x), yOf(p.y), p.mark)),
    spread(sorted, 6).map((p) => svg("text", { class: "tick", x: xOf(p.x), y: MARGIN.top + PLOT_HEIGHT + 17, "text-anchor": "middle" }, String(p.x))),
  );
  return figure(title, chart);
}

/** The widest a bar gets, so one or two bars do not fill the plot. */
const MAX_BAR = 36;

/**
 * One vertical bar per entry of `bars` ({key, value, label, mark}), in the given order, centred
 * when few; a flag over each marked bar; keys under at most a dozen bars, spread evenly.
 */
export function barChart(title, bars, { xLabel, format = shortNumber }) {
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const slot = Math.min(PLOT_WIDTH / Math.max(1, bars.length), MAX_BAR / 0.7);
  const left = MARGIN.left + (PLOT_WIDTH - slot * bars.length) / 2;
  const chart = frame(title, max, xLabel, format);
  const labelled = new Set(spread(bars, 12));
  add(
    chart,
    bars.map((bar, i) => {
      const height = (bar.value / max) * PLOT_HEIGHT;
      const x = left + i * slot + slot * 0.15;
      const top = MARGIN.top + PLOT_HEIGHT - height;
      return [
        svg("rect", { class: `series-0 bar${bar.mark ? " marked" : ""}`, x, y: top, width: Math.max(slot * 0.7, 0.5), height, "data-key": bar.key }, svg("title", {}, bar.label)),
        bar.mark ? flag(x + slot * 0.35, top, bar.mark) : null,
        labelled.has(bar) ? svg("text", { class: "tick", x: x + slot * 0.35, y: MARGIN.top + PLOT_HEIGHT + 17, "text-anchor": "middle" }, String(bar.key)) : null,
      ];
    }),
  );
  return figure(title, chart);
}

/**
 * One horizontal bar per row of `rows` ({name, parts: [value…]}), its parts stacked left to right
 * in the colours of `series` (their names, shown as a legend).
 */
export function stackedBars(title, rows, series) {
  const rowHeight = 26;
  const labelWidth = 160;
  const width = WIDTH - labelWidth - MARGIN.right;
  const height = rows.length * rowHeight + 30;
  const max = Math.max(1, ...rows.map((row) => row.parts.reduce((sum, value) => sum + value, 0)));
  const chart = svg("svg", { class: "chart", viewBox: `0 0 ${WIDTH} ${height}`, role: "img", "aria-label": title }, svg("title", {}, title));
  rows.forEach((row, i) => {
    const y = i * rowHeight + 4;
    let x = labelWidth;
    chart.append(svg("text", { class: "tick", x: labelWidth - 8, y: y + 15, "text-anchor": "end" }, row.name));
    row.parts.forEach((value, s) => {
      const w = (value / max) * width;
      chart.append(svg("rect", { class: `series-${s} bar`, x, y, width: w, height: rowHeight - 8 }, svg("title", {}, `${row.name}: ${formatCount(value)} ${series[s]}`)));
      x += w;
    });
  });
  const legendY = rows.length * rowHeight + 18;
  series.forEach((name, s) => {
    const x = labelWidth + s * 160;
    chart.append(svg("rect", { class: `series-${s}`, x, y: legendY - 9, width: 10, height: 10 }), svg("text", { class: "tick", x: x + 14, y: legendY }, name));
  });
  return figure(title, chart);
}

const SPARK = { width: 96, height: 24, pad: 3 };

/**
 * A small trend line for a table cell: `points` ({x, y}) in order of x, scaled from the lowest to
 * the highest y (so a change of a few rows in thousands still shows), a dot on the last value.
 * `label` names it for screen readers and, as its `<title>`, lists every value.
 */
export function sparkline(label, points) {
  const ys = points.map((p) => p.y);
  const [low, high] = [Math.min(...ys), Math.max(...ys)];
  const xOf = (i) => SPARK.pad + (points.length === 1 ? (SPARK.width - 2 * SPARK.pad) / 2 : (i / (points.length - 1)) * (SPARK.width - 2 * SPARK.pad));
  const yOf = (y) => SPARK.height - SPARK.pad - (high === low ? (SPARK.height - 2 * SPARK.pad) / 2 : ((y - low) / (high - low)) * (SPARK.height - 2 * SPARK.pad));
  const last = points.length - 1;
  return svg(
    "svg",
    { class: "chart sparkline", viewBox: `0 0 ${SPARK.width} ${SPARK.height}`, width: SPARK.width, height: SPARK.height, role: "img", "aria-label": label },
    svg("title", {}, label),
    points.length > 1 ? svg("polyline", { class: "series-0 line", points: points.map((p, i) => `${xOf(i)},${yOf(p.y)}`).join(" ") }) : null,
    svg("circle", { class: "series-0 point", cx: xOf(last), cy: yOf(points[last].y), r: 2.5 }),
  );
}
