/**
 * Runs `work` over `items` with at most `limit` calls in flight, answering the results in the
 * items' order: the console's per-table and per-version reads, quick without crowding the server.
 */
export async function mapLimited(items, limit, work) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
