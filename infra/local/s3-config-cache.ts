import type S3rver from 's3rver';

/** What s3rver's store does with a bucket's configurations (CORS, website) that the cache wraps. */
const CHANGES = ['putSubresource', 'deleteSubresource', 'putBucket', 'deleteBucket', 'reset'] as const;

/**
 * s3rver's CORS and website middleware read the bucket's configuration files from disk and parse
 * their XML on every request (s3rver 3.7 has no option to keep them): two file reads per object
 * request, the website one failing with ENOENT and its error object each time. The bucket's
 * configurations change only through the store (PutBucketCors and the like, a bucket created or
 * deleted), so they are read once and kept until the store changes them; an object's own
 * subresources (a key given) are read as before.
 */
export function cacheBucketConfigurations(server: S3rver): void {
  const store = server.store;
  const read = store.getSubresource.bind(store);
  const kept = new Map<string, Promise<unknown>>();
  store.getSubresource = (bucket, key, resourceType) => {
    if (key !== undefined) return read(bucket, key, resourceType);
    const name = `${bucket}/${resourceType}`;
    let config = kept.get(name);
    if (!config) {
      config = read(bucket, key, resourceType);
      kept.set(name, config);
      // A failed read is not kept: the next request tries again.
      config.catch(() => kept.delete(name));
    }
    return config;
  };
  for (const change of CHANGES) {
    const original = store[change].bind(store) as (...args: unknown[]) => unknown;
    store[change] = ((...args: unknown[]) => {
      kept.clear();
      const result = original(...args);
      // Reads that started while the change ran may hold the old configuration: dropped once it is done.
      if (result instanceof Promise) return result.finally(() => kept.clear());
      return result;
    }) as never;
  }
}
