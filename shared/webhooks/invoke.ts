import { request } from 'node:https';
import { SignatureV4 } from '@smithy/signature-v4';
import { dynamodb } from '#shared/db/client';

/**
 * Lambda's `Invoke` with `InvocationType: Event` (queued; Lambda answers 202 at once and runs the
 * function later, retrying it twice on failure), signed with SigV4 by the signer every bundle carries
 * already, with the credentials and region the DynamoDB client resolved (the function's role's). Not
 * `@aws-sdk/client-lambda`: its ~70 KiB would take `files/upload` past the 640 KiB bundle limit
 * (598 KiB before this), and an asynchronous invoke is one POST whose answer carries nothing.
 */
const INVOKE_TIMEOUT_MS = 3000;

let signer: Promise<{ signer: SignatureV4; host: string }> | undefined;

async function signerOf() {
  const { config } = dynamodb;
  const region = await config.region();
  return {
    signer: new SignatureV4({
      service: 'lambda',
      region,
      credentials: config.credentials,
      sha256: config.sha256,
    }),
    host: `lambda.${region}.amazonaws.com`,
  };
}

/** Queues one invocation of `functionName` with this JSON payload; resolves once Lambda has it. */
export async function invokeAsynchronously(functionName: string, payload: string): Promise<void> {
  signer ??= signerOf();
  const { signer: sign, host } = await signer;
  const path = `/2015-03-31/functions/${functionName}/invocations`;
  const signed = await sign.sign({
    method: 'POST',
    protocol: 'https:',
    hostname: host,
    path,
    query: {},
    headers: {
      host,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(payload)),
      'x-amz-invocation-type': 'Event',
    },
    body: payload,
  });
  await new Promise<void>((resolve, reject) => {
    const call = request(
      { method: 'POST', hostname: host, path, headers: signed.headers, timeout: INVOKE_TIMEOUT_MS },
      (answer) => {
        answer.resume();
        if (answer.statusCode === 202) resolve();
        else reject(new Error(`Lambda answered ${answer.statusCode} to an asynchronous invoke`));
      },
    );
    call.on('timeout', () => call.destroy(new Error('Lambda did not answer in time')));
    call.on('error', reject);
    call.end(payload);
  });
}
