/**
 * Reads the README as the doc test runs it: its fenced blocks in order, the `doc-test` directives
 * written before them as HTML comments, each block cut into the commands a shell runs one at a
 * time, and the outputs their comments state.
 *
 * Directives: `<!-- doc-test: skip (reason) -->` before a block that cannot run where the tests
 * run; `<!-- doc-test: server -->` before the block a reader leaves running in a terminal of its
 * own; `<!-- doc-test: ports N N … -->` lists the fixed ports the blocks use, which the test may
 * move to free ones.
 */
import { spawnSync } from "node:child_process";

/** One fenced block of the README. */
export interface Block {
  /** The fence's language: `sh`, `js` or `text`. */
  lang: string;
  /** The block's text, without the fences. */
  text: string;
  /** The 1-based line of the opening fence. */
  line: number;
  /** `skip (reason)`, `server`, or undefined for a block run in the reader's shell. */
  directive: string | undefined;
}

/** The README's blocks and the ports its `ports` directive lists. */
export interface Readme {
  blocks: Block[];
  ports: number[];
}

/** Splits the README into its fenced blocks, each with the directive written just before it. */
export function readBlocks(markdown: string): Readme {
  const blocks: Block[] = [];
  const ports: number[] = [];
  const lines = markdown.split("\n");
  let pending: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const directive = /^<!-- doc-test: (.+?) -->$/.exec(line.trim())?.[1];
    if (directive?.startsWith("ports ")) ports.push(...directive.slice("ports ".length).trim().split(/\s+/).map(Number));
    else if (directive) pending = directive;
    const fence = /^```(\w*)\s*$/.exec(line);
    if (!fence) continue;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && !/^```\s*$/.test(lines[index] as string); index++) body.push(lines[index] as string);
    blocks.push({ lang: fence[1] ?? "", text: body.join("\n"), line: start + 1, directive: pending });
    pending = undefined;
  }
  return { blocks, ports };
}

/** One command of a block as a reader pastes it, and what its comments say it prints. */
export interface Command {
  text: string;
  /** The outputs its comments state, in the forms `checkOutput` understands. */
  expected: string[];
}

/** Whether bash can run `text` as it stands, rather than wait for more lines (a quote or `\` left open). */
function complete(text: string): boolean {
  if (/\\$/.test(text)) return false;
  return spawnSync("bash", ["-n"], { input: text, stdio: ["pipe", "ignore", "ignore"] }).status === 0;
}

/** The comments of a shell command's text: a `#` after blank space, outside quotes, to the line's end. */
function shellComments(text: string): { line: number; comment: string }[] {
  const found: { line: number; comment: string }[] = [];
  let quote: string | undefined;
  let line = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === "\n") line++;
    if (quote === "'") {
      if (char === "'") quote = undefined;
    } else if (char === "\\") {
      if (text[++i] === "\n") line++;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === "#" && (i === 0 || /\s/.test(text[i - 1] as string))) {
      const end = text.indexOf("\n", i);
      found.push({ line, comment: text.slice(i + 1, end === -1 ? undefined : end).trim() });
      i = end === -1 ? text.length : end - 1;
    }
  }
  return found;
}

/** The lines a `console.log(…); // X` comment says the program prints (`prints X` reads as `X`). */
function consoleComments(text: string): string[] {
  return [...text.matchAll(/console\.log\(.*\);\s*\/\/\s*(?:prints\s+)?(.+)$/gm)].map((match) => `line:${(match[1] as string).trim()}`);
}

/**
 * Cuts a shell block into commands: a command ends where bash could run what it has (here-documents
 * run to their end line). A comment standing alone on a line states the previous command's output.
 */
export function shellCommands(block: string): Command[] {
  const commands: Command[] = [];
  let lines: string[] = [];
  let heredoc: string | undefined;
  for (const line of block.split("\n")) {
    if (lines.length === 0 && /^\s*#/.test(line)) {
      const previous = commands.at(-1);
      if (previous) previous.expected.push(...expectations(line.trim().slice(1).trim()));
      continue;
    }
    if (lines.length === 0 && line.trim() === "") continue;
    lines.push(line);
    if (heredoc === undefined) heredoc = /<<-?\s*'?(\w+)'?/.exec(line)?.[1];
    else if (line.trim() === heredoc) heredoc = undefined;
    const text = lines.join("\n");
    if (heredoc !== undefined && lines.length === 1) continue;
    if (heredoc === undefined && complete(text)) {
      const comments = shellComments(text);
      const trailing = comments.filter((entry) => entry.line === lines.length - 1 && !lines[lines.length - 1]?.trim().startsWith("#"));
      commands.push({ text, expected: [...trailing.flatMap((entry) => expectations(entry.comment)), ...consoleComments(text)] });
      lines = [];
    }
  }
  if (lines.length > 0) throw new Error(`a command never ends: ${lines.join("\n")}`);
  return commands;
}

/** A JavaScript block's expected output lines, from its `console.log(…); // X` comments. */
export function scriptExpectations(block: string): string[] {
  return consoleComments(block);
}

/**
 * The checks a comment states: a bare integer is a line of the output; a JSON-like text (`{…}`,
 * `[…]`, optionally after an HTTP status) is the `"key":value` pairs it spells out, where `<…>`
 * and `...` inside a string stand for any text and pairs whose value is elided are not checked.
 * Prose states nothing checkable.
 */
function expectations(comment: string): string[] {
  const text = comment.replace(/^prints\s+/, "");
  if (/^-?\d+$/.test(text)) return [`line:${text}`];
  const json = /^(?:\d{3}\s+)?([{[].*)$/.exec(text)?.[1];
  if (!json) return [];
  const scalar = String.raw`"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null`;
  const pair = new RegExp(String.raw`"[\w$-]+":(?:${scalar}|\[(?:(?:${scalar})(?:,(?:${scalar}))*)?\])(?=[,}\]:]|$)`, "g");
  return [...json.matchAll(pair)].map((match) => `pair:${match[0]}`);
}

/** Whether `output` shows what `expected` (from `shellCommands` or `scriptExpectations`) states. */
export function checkOutput(expected: string, output: string): boolean {
  const lines = output.split("\n").map((line) => line.trim());
  if (expected.startsWith("line:")) return lines.includes(expected.slice("line:".length));
  const literal = expected.slice("pair:".length);
  const pattern = literal
    .split(/(<[^>]+>|\.\.\.)/)
    .map((part, index) => (index % 2 === 1 ? `[^"]*` : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(pattern).test(output);
}
