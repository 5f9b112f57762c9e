/**
 * @module Where and how `quiver serve` writes its log: JSON lines (one object per line, for log
 * shippers) or a readable line per record for a terminal. `auto` picks pretty when stdout is a
 * TTY. Every line passes a scrubber first that replaces secrets where they stand as values: the
 * password of any URL (`scheme://user:PASSWORD@host`), and a configured secret (a secret storage
 * option's value, the store URL's password) that makes up a whole value (a quoted string, what
 * follows `=`, `:` or an authorization scheme such as `Bearer`). A secret that is part of other
 * text is not one: a store password `quiver` leaves `/srv/quiver/tables` and `quiver.internal`
 * as they are.
 */
import type { Writable } from "node:stream";

/** Where log text goes: a stream, or a `batchedSink` in front of one. */
export interface LogSink {
  write(text: string): unknown;
}

export const logFormats = ["auto", "json", "pretty"] as const;
export type LogFormat = (typeof logFormats)[number];

export const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** pino's numeric levels, as they appear in JSON lines. */
const levelNames: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };

/** Fields every record has, shown in the line's head rather than as key=value. */
const headFields = new Set(["level", "time", "msg", "pid", "hostname"]);

export function usesPretty(format: LogFormat, stdoutIsTty: boolean): boolean {
  return format === "pretty" || (format === "auto" && stdoutIsTty);
}

function formatValue(value: unknown): string {
  if (typeof value === "string") return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

/** One JSON record as a terminal line: `12:00:01.250 INFO  request method=GET ... reqId=...`. */
export function prettyLine(record: Record<string, unknown>): string {
  const time = typeof record.time === "number" ? new Date(record.time).toISOString().slice(11, 23) : "";
  const level = (typeof record.level === "number" ? levelNames[record.level] : String(record.level ?? "")) ?? String(record.level);
  const fields = Object.entries(record)
    .filter(([key, value]) => !headFields.has(key) && value !== undefined)
    .map(([key, value]) => {
      if (key === "err" && value && typeof value === "object") {
        const err = value as { type?: string; message?: string; stack?: string };
        return `err=${formatValue(err.message ?? err.type)}${err.stack ? `\n${err.stack}` : ""}`;
      }
      return `${key}=${formatValue(value)}`;
    });
  return [time, level.padEnd(5), String(record.msg ?? ""), ...fields].filter((part) => part !== "").join(" ");
}

/** `scheme://user:` and what follows up to `@`: a URL's password field. */
const urlPassword = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:"'\\]*:)([^\s/?#@"'\\]+)@/gi;

/** Text right before a value: a quote, `=`, `?`, `&`, an opening bracket, `,`, `:` (with spaces), or an authorization scheme. */
const valueOpener = /(?:^|["'`=?&([{<,]|:\s*|\b(?:Bearer|Basic|Token|SharedKey|SharedAccessSignature)\s+)$/i;

/** A character that would continue a word, path, host name or encoded value: the match is then part of other text. */
const continuesText = /[\p{L}\p{N}_\-/~%+]/u;

function endsValue(text: string, end: number): boolean {
  const next = text[end];
  if (next === undefined) return true;
  // A dot ends a value only where a sentence would (`... key=SECRET.`), not inside a name.
  if (next === ".") return text[end + 1] === undefined || !continuesText.test(text[end + 1] as string);
  return !continuesText.test(next);
}

/** Replaces the occurrences of `secret` in `text` that make up a whole value. */
function scrubValue(text: string, secret: string): string {
  let scrubbed = "";
  let from = 0;
  for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) {
    if (at < from) continue;
    const end = at + secret.length;
    if (!valueOpener.test(text.slice(Math.max(0, at - 40), at)) || !endsValue(text, end)) continue;
    scrubbed += `${text.slice(from, at)}[redacted]`;
    from = end;
  }
  return scrubbed + text.slice(from);
}

/**
 * Replaces every URL's password, and each of `secrets` where it makes up a whole value (secrets
 * shorter than 4 characters are skipped: they would match by accident).
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let scrubbed = text.replace(urlPassword, "$1[redacted]@");
  for (const secret of secrets) if (secret.length >= 4) scrubbed = scrubValue(scrubbed, secret);
  return scrubbed;
}

/**
 * The stream pino writes to: each JSON line is scrubbed, then written as it is or as a pretty
 * line. A line that is not JSON (it never should be) is written scrubbed and unchanged.
 */
export interface LogStream {
  /** Writes one JSON record line. */
  write(line: string): void;
  /** Writes text that is no record (another program's output) to `out`, scrubbed but unchanged. */
  passThrough(out: Writable, text: string): void;
}

export function logStream(out: LogSink, options: { pretty: boolean; secrets: readonly string[] }): LogStream {
  const secrets = options.secrets.filter((secret) => secret.length >= 4);
  // JSON escapes some characters of a secret (quotes, backslashes); its escaped form is scrubbed too.
  const forms = [...new Set(secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]))].sort((a, b) => b.length - a.length);
  return {
    write(line: string) {
      const scrubbed = scrubSecrets(line, forms);
      if (!options.pretty) {
        out.write(scrubbed);
        return;
      }
      try {
        out.write(`${prettyLine(JSON.parse(scrubbed) as Record<string, unknown>)}\n`);
      } catch {
        out.write(scrubbed);
      }
    },
    passThrough(to: Writable, text: string) {
      to.write(scrubSecrets(text, forms));
    },
  };
}

/** Gathered lines are written at once past this size, without waiting for the turn to end. */
const batchBytes = 64 * 1024;

/**
 * A sink that gathers the lines written within one turn of the event loop and writes them to
 * `out` together. stdout to a pipe or a file is written synchronously, and one write per request
 * line cost a busy server about a third of its throughput. What is gathered is written at the
 * latest when the process exits (a SIGKILL loses at most the current turn's lines).
 */
export function batchedSink(out: LogSink): LogSink & { flush(): void } {
  let pending: string[] = [];
  let pendingBytes = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join("");
    pending = [];
    pendingBytes = 0;
    out.write(text);
  };
  process.on("exit", flush);
  return {
    write(text: string) {
      pending.push(text);
      pendingBytes += text.length;
      if (pendingBytes >= batchBytes) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
