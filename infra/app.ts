import { App } from 'aws-cdk-lib';
import { FileServiceStack } from './stack.ts';

/**
 * `cdk synth|deploy|destroy` entry point. Environment-agnostic (no account or region lookups), so
 * synth runs offline without credentials. `-c retainData=false` lets `destroy` delete the table.
 */
const app = new App();
new FileServiceStack(app, 'FileService', {
  retainData:
    app.node.tryGetContext('retainData') !== 'false' && app.node.tryGetContext('retainData') !== false,
});
app.synth();
