/** The part of s3rver (no bundled types) the local runner and the tests use. */
declare module 's3rver' {
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    /** The filesystem store behind every request (s3-config-cache.ts wraps its configuration reads). */
    store: S3rverStore;
    /** Koa's middleware list (s3rver is a Koa app); composed when the server starts. */
    middleware: ((context: S3rverContext, next: () => Promise<void>) => Promise<void>)[];
  }
  /** The part of s3rver's filesystem store whose bucket configuration reads infra/local caches. */
  interface S3rverStore {
    getSubresource(bucket: string, key: string | undefined, resourceType: string): Promise<unknown>;
    putSubresource(...args: unknown[]): Promise<unknown>;
    deleteSubresource(...args: unknown[]): Promise<unknown>;
    putBucket(...args: unknown[]): Promise<unknown>;
    deleteBucket(...args: unknown[]): Promise<unknown>;
    reset(...args: unknown[]): unknown;
  }
  /** The part of a request's Koa context that infra/local/s3.ts reads once it was answered. */
  interface S3rverContext {
    method: string;
    /** URL-encoded, path-style: `/<bucket>/<key>`. */
    path: string;
    query: Record<string, string | string[] | undefined>;
    headers: Record<string, string | string[] | undefined>;
    status: number;
  }
}
