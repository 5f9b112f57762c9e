/** @module Maps stored as JSON text columns. */

export function toJsonColumn(map: Record<string, string> | null | undefined): string {
  return JSON.stringify(map ?? {});
}

export function fromJsonColumn(text: string): Record<string, string> {
  return text ? (JSON.parse(text) as Record<string, string>) : {};
}
