/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), for tests: every line
 * must be a comment (`# HELP`, `# TYPE`), blank, or a sample `name{label="value",...} number`;
 * anything else throws with the line.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y;
const metricTypes = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  labelPair.lastIndex = 0;
  while (labelPair.lastIndex < text.length) {
    const match = labelPair.exec(text);
    if (!match) throw new Error(`malformed labels in: ${line}`);
    labels[match[1] as string] = (match[2] as string).replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
  }
  return labels;
}

/** Values as Prometheus reads them: a float, or NaN / Inf in any letter case (its Go parser ignores case there). */
function parseValue(text: string, line: string): number {
  const special = text.toLowerCase();
  if (special === "+inf" || special === "inf") return Infinity;
  if (special === "-inf") return -Infinity;
  if (special === "nan") return NaN;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new Error(`malformed value in: ${line}`);
  return value;
}

export function parsePrometheusText(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    if (line.startsWith("#")) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type) {
        if (!metricTypes.has(type[2] as string)) throw new Error(`unknown metric type in: ${line}`);
        types.set(type[1] as string, type[2] as string);
      } else if (!/^# HELP \S+ /.test(line) && !/^# HELP \S+$/.test(line)) throw new Error(`unexpected comment: ${line}`);
      continue;
    }
    const match = sampleLine.exec(line);
    if (!match) throw new Error(`malformed sample: ${line}`);
    samples.push({ name: match[1] as string, labels: match[2] ? parseLabels(match[2], line) : {}, value: parseValue(match[3] as string, line) });
  }
  return { samples, types };
}

/** The sum of the samples named `name` whose labels include `labels`. */
export function sumOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((total, sample) => total + sample.value, 0);
}
