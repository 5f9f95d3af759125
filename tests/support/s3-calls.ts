import { S3ServiceException } from '@aws-sdk/client-s3';
import { s3 } from '#shared/s3/client';

const RECORDER = 'recordS3Commands';
const INJECTOR = 'injectS3Fault';

/**
 * Records the name of every command the handlers send through the module-scope S3 client (signing a
 * presigned URL sends nothing and is not recorded). `stop()` removes the recorder.
 */
export function recordS3Commands() {
  const commands: string[] = [];
  s3.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      commands.push(context.commandName as string);
      return result;
    },
    { step: 'deserialize', name: RECORDER },
  );
  return { commands, stop: () => s3.middlewareStack.remove(RECORDER) };
}

/**
 * What S3 answers a HEAD of a missing key when the caller may not list the whole bucket: 403 with no
 * body (s3rver always answers 404, so this is the one S3 fault the tests inject).
 */
export const headForbidden = () =>
  new S3ServiceException({
    name: 'Forbidden',
    $fault: 'client',
    $metadata: { httpStatusCode: 403 },
    message: 'injected: Forbidden',
  });

/** Fails every attempt of one S3 command with `error` until `stop()`. */
export function injectS3Fault(command: string, error: () => Error) {
  s3.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === command) throw error();
      return next(args);
    },
    { step: 'deserialize', name: INJECTOR },
  );
  return { stop: () => s3.middlewareStack.remove(INJECTOR) };
}
