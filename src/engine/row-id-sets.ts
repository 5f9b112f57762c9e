/**
 * @module Sets of Lance row ids as sorted UInt64 arrays (8 bytes per row, no JS objects): the
 * diff of a source against a view, and SQL predicates selecting many ids compactly.
 */

/** Concatenates id chunks and sorts them ascending. */
export function sortedIds(parts: BigUint64Array[]): BigUint64Array {
  const total = parts.reduce((n, part) => n + part.length, 0);
  const ids = new BigUint64Array(total);
  let offset = 0;
  for (const part of parts) {
    ids.set(part, offset);
    offset += part.length;
  }
  return ids.sort();
}

export function distinct(sorted: BigUint64Array): BigUint64Array {
  let out = 0;
  for (let i = 0; i < sorted.length; i += 1) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[out++] = sorted[i] as bigint;
  return sorted.subarray(0, out);
}

/** Ids in sorted order → values of A missing from B, and of B missing from A. */
export function diffSortedIds(a: BigUint64Array, b: BigUint64Array): { onlyA: BigUint64Array; onlyB: BigUint64Array } {
  const onlyA = new BigUint64Array(a.length);
  const onlyB = new BigUint64Array(b.length);
  let na = 0;
  let nb = 0;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && (a[i] as bigint) < (b[j] as bigint))) onlyA[na++] = a[i++] as bigint;
    else if (i >= a.length || (b[j] as bigint) < (a[i] as bigint)) onlyB[nb++] = b[j++] as bigint;
    else {
      i += 1;
      j += 1;
    }
  }
  return { onlyA: onlyA.subarray(0, na), onlyB: onlyB.subarray(0, nb) };
}

/** SQL predicates selecting `ids`, consecutive runs as ranges, at most `terms` terms each. */
export function rangePredicates(ids: BigUint64Array, column: string, terms: number): string[] {
  const parts: string[] = [];
  let start = 0;
  while (start < ids.length) {
    let end = start;
    while (end + 1 < ids.length && ids[end + 1] === (ids[end] as bigint) + 1n) end += 1;
    parts.push(start === end ? `${column} = ${ids[start]}` : `(${column} >= ${ids[start]} AND ${column} <= ${ids[end]})`);
    start = end + 1;
  }
  const predicates: string[] = [];
  for (let i = 0; i < parts.length; i += terms) predicates.push(parts.slice(i, i + terms).join(" OR "));
  return predicates;
}
