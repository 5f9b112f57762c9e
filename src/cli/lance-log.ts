/**
 * @module Lance's own log lines, as its native layer writes them to stderr
 * (`[2026-01-02T03:04:05Z WARN  lance::dataset::write] message`), turned into records of Quiver's
 * log: pino's numeric level, the time, `source: "lance"`, Lance's module as `target`, the message.
 */
const lanceLine = /^\[(\d{4}-\d\d-\d\dT[\d:.]+Z)\s+(ERROR|WARN|INFO|DEBUG|TRACE)\s+([^\]\s]+)\s*\]\s?(.*)$/;

/** pino's numbers for Lance's level names. */
const levels: Record<string, number> = { TRACE: 10, DEBUG: 20, INFO: 30, WARN: 40, ERROR: 50 };

export interface LanceRecord {
  level: number;
  time: number;
  source: "lance";
  target: string;
  msg: string;
}

/** The record of one stderr line, or undefined when Lance did not write it in its log format. */
export function parseLanceLine(line: string): LanceRecord | undefined {
  const match = lanceLine.exec(line);
  if (!match) return undefined;
  const [, time, level, target, msg] = match as unknown as [string, string, string, string, string];
  return { level: levels[level] as number, time: Date.parse(time), source: "lance", target, msg };
}
