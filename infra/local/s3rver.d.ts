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
    /** Koa's middleware list (s3rver is a Koa app); composed when the server starts. */
    middleware: ((context: S3rverContext, next: () => Promise<void>) => Promise<void>)[];
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
