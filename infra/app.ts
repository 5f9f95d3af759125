import { App } from 'aws-cdk-lib';
import { FileServiceStack } from './stack.ts';

/**
 * `cdk synth|deploy|destroy` entry point. Environment-agnostic (no account or region lookups), so
 * synth runs offline without credentials. `-c retainData=false` lets `destroy` delete the table
 * and the bucket.
 */
const app = new App();
const allowedOrigins: unknown = app.node.tryGetContext('allowedOrigins');
new FileServiceStack(app, 'FileService', {
  retainData:
    app.node.tryGetContext('retainData') !== 'false' && app.node.tryGetContext('retainData') !== false,
  // `-c allowedOrigins=https://dash.example.com,https://other.example` (cookie writes from those pages).
  allowedOrigins: typeof allowedOrigins === 'string' ? allowedOrigins.split(',').filter(Boolean) : [],
});
app.synth();
