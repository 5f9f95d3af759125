/**
 * Runs `task` on every item with at most `limit` running at once, each worker taking the next item
 * as it finishes one (storage calls fan out without flooding the client's sockets). Resolves when
 * all are done; a task's failure rejects it, as `Promise.all` does.
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
