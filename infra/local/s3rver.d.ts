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
    /** Every object created or removed, as an S3 event notification (keys not URL-encoded). */
    on(event: 'event', listener: (notification: import('aws-lambda').S3Event) => void): this;
  }
}
