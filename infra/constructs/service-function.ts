import { join } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { OAuthProviderId } from '#shared/config/oauth';
import { LONG_RUN_SECONDS } from '#shared/routes/background';
import { PROJECT_ROOT } from '../project-root.ts';
import type { AccessRole } from './access-role.ts';
import { BCRYPT, nativeCopyCommands, SHARP, warnWithoutX64Binary } from './native-modules.ts';

/**
 * Memory per function class: bcrypt and image decoding are CPU-bound and Lambda's CPU share grows
 * with memory. Decoding also needs the room: up to 50 megapixels (`IMAGE_MAX_INPUT_PIXELS`), and
 * re-encoding the worst such image to WebP peaked at 1,228 MB (bench/compression-memory.ts); 1,769
 * MB is a whole vCPU's share, so the CPU-bound work costs about what it did at 1,024.
 */
export const MEMORY_MB = { standard: 256, passwordHashing: 1024, imageProcessing: 1769 } as const;

/** A function's memory from what it carries. */
export const memoryOf = (spec: {
  hashesPasswords: boolean;
  native?: 'sharp' | undefined;
  longRun?: { memoryMb: number } | undefined;
}) =>
  spec.longRun
    ? spec.longRun.memoryMb
    : spec.native === 'sharp'
      ? MEMORY_MB.imageProcessing
      : spec.hashesPasswords
        ? MEMORY_MB.passwordHashing
        : MEMORY_MB.standard;

const CREDENTIAL_PROVIDER = '@aws-sdk/credential-provider-node';
const LAMBDA_CREDENTIALS = join(PROJECT_ROOT, 'infra', 'lambda', 'credentials.ts');
/** Attestation certificate checks the passkey registration never asks for (infra/lambda/no-x509.ts). */
const X509 = '@peculiar/x509';
const NO_X509 = join(PROJECT_ROOT, 'infra', 'lambda', 'no-x509.ts');

// ESM output: bundled CommonJS code (the AWS SDK's dependencies) still calls require() for builtins.
const REQUIRE_SHIM =
  "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/**
 * Value of the variables only `sam local` fills in (DynamoDB Local's endpoint, local keys): SAM's
 * `--env-vars` overrides only variables the template declares, and empty means unset to the code.
 */
const LOCAL_ONLY = '';

export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

export interface ServiceFunctionProps {
  /** Module under `functions/` exporting `handler`. */
  handler: string;
  /** Ships bcrypt's native module and gets the larger memory class. */
  hashesPasswords: boolean;
  /** Ships sharp's native module and libvips (thumbnails, the direct upload), with the image class's memory and time. */
  native?: 'sharp' | undefined;
  /** Ships ffmpeg's linux-arm64 binary (the thumbnail function). */
  ffmpeg?: boolean;
  /** Runs on a schedule (the expiry sweep): its run may take the minute until the next one. */
  scheduled?: boolean;
  /** A long run (the export): Lambda's longest timeout and this memory. */
  longRun?: { memoryMb: number };
  /** Its own timeout (a function invoked asynchronously: the webhook deliverer's 30 s). */
  timeoutSeconds?: number;
  logRetention: RetentionDays;
  /** `POWERTOOLS_LOG_LEVEL`: INFO logs one line per request; WARN and ERROR only problems. */
  logLevel: LogLevelName;
  /** Namespace of the embedded metrics (the stack's name). */
  metricsNamespace: string;
  /** The role of the functions with this function's access (its grants, and its log group). */
  access: AccessRole;
  /** Writes esbuild's metafile (`index.meta.json`) next to the bundle: for the benchmark, not for deploys. */
  metafile?: boolean;
}

/**
 * A route's Lambda function with the service's defaults fixed in one place: Node.js 22 on arm64, an
 * ESM bundle that includes the AWS SDK at the lockfile's versions, minified with names kept, source
 * maps in their own file, and its own log group with retention; the role its access class shares.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: LogGroup;
  /** Its access class's role (shared with the functions of the same grants in its stack). */
  readonly access: AccessRole;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.access = props.access;
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    if (props.hashesPasswords) warnWithoutX64Binary(this);
    props.access.writesTo(this.logGroup);
    this.function = new NodejsFunction(this, 'Function', {
      role: props.access.role,
      entry: join(PROJECT_ROOT, 'functions', `${props.handler}.ts`),
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: memoryOf(props),
      // Decoding and encoding a large image takes longer than other API requests may (API Gateway
      // waits 30 s at most); a sweep, up to its next run; an export, Lambda's 15 minutes; an
      // asynchronously invoked function, its own.
      timeout: Duration.seconds(
        props.timeoutSeconds ??
          (props.longRun ? LONG_RUN_SECONDS : props.scheduled ? 60 : props.native === 'sharp' ? 30 : 10),
      ),
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      logGroup: this.logGroup,
      environment: {
        POWERTOOLS_LOG_LEVEL: props.logLevel,
        POWERTOOLS_METRICS_NAMESPACE: props.metricsNamespace,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        banner: REQUIRE_SHIM,
        minify: true,
        keepNames: true,
        sourceMap: true,
        // A separate .map file (not inline): the logger maps a logged error's stack with it
        // (shared/log/source-maps.ts); nothing reads it while the function serves requests.
        sourceMapMode: SourceMapMode.DEFAULT,
        sourcesContent: false,
        logLevel: LogLevel.WARNING,
        metafile: props.metafile === true,
        // Lambda's credentials are in the environment: the SDK's full default chain is dead weight.
        // Non-ASCII as itself, not as \u escapes (the `charset` prop is not passed on to esbuild):
        // the username confusables table (unhomoglyph) is a third smaller, which keeps users/delete
        // within the 600 KB budget with the logger in.
        esbuildArgs: {
          [`--alias:${CREDENTIAL_PROVIDER}`]: LAMBDA_CREDENTIALS,
          [`--alias:${X509}`]: NO_X509,
          '--charset': 'utf8',
        },
        // Nothing external (the AWS SDK is bundled) except the native modules, which are copied.
        externalModules: [
          ...(props.hashesPasswords ? [BCRYPT] : []),
          ...(props.native === 'sharp' ? [SHARP] : []),
        ],
        ...(props.hashesPasswords || props.native === 'sharp' || props.ffmpeg
          ? {
              commandHooks: {
                beforeBundling: () => [],
                beforeInstall: () => [],
                afterBundling: (_inputDir: string, outputDir: string) =>
                  nativeCopyCommands(outputDir, {
                    hashesPasswords: props.hashesPasswords,
                    sharp: props.native === 'sharp',
                    ffmpeg: props.ffmpeg === true,
                  }),
              },
            }
          : {}),
      },
    });
  }

  /** Sets TABLE_NAME (the grants are its access role's). */
  useTable(table: ITable): void {
    this.function.addEnvironment('TABLE_NAME', table.tableName);
    this.function.addEnvironment('DYNAMODB_ENDPOINT', LOCAL_ONLY);
  }

  /** Sets BUCKET_NAME (the grants are its access role's). */
  useBucket(bucket: IBucket): void {
    this.function.addEnvironment('BUCKET_NAME', bucket.bucketName);
    this.function.addEnvironment('S3_ENDPOINT', LOCAL_ONLY);
  }

  /**
   * The providers' configuration as the function's environment (client ids, the OIDC issuer and
   * name, sign-up); with `clientSecrets`, the ARN of the secret holding their client secrets (the
   * callback function only).
   */
  useOAuth(settings: OAuthSettings, clientSecrets?: ISecret): void {
    for (const provider of settings.providers) {
      const prefix = `OAUTH_${provider.id.toUpperCase()}`;
      this.function.addEnvironment(`${prefix}_CLIENT_ID`, provider.clientId);
      if (provider.issuer) this.function.addEnvironment(`${prefix}_ISSUER`, provider.issuer);
      if (provider.name) this.function.addEnvironment(`${prefix}_NAME`, provider.name);
    }
    this.function.addEnvironment('OAUTH_SIGNUP', String(settings.signup));
    // Its access role reads the secret (the callback's class only).
    if (clientSecrets) this.function.addEnvironment('OAUTH_CLIENT_SECRETS_ARN', clientSecrets.secretArn);
  }

  /** Passes the secret's ARN, never its value (its access role may read that secret only). */
  useServiceKeys(secret: ISecret): void {
    this.function.addEnvironment('SERVICE_KEYS_SECRET_ARN', secret.secretArn);
    this.function.addEnvironment('SERVICE_KEYS', LOCAL_ONLY);
  }

  /** First-run setup's code: its secret's ARN (only the checking function's role may read it). */
  useSetupCode(secret: ISecret): void {
    this.function.addEnvironment('SETUP_CODE_SECRET_ARN', secret.secretArn);
    this.function.addEnvironment('SETUP_CODE', LOCAL_ONLY);
  }
}

/** The sign-in providers a deployment offers (stack context; docs/deploy.md). */
export interface OAuthSettings {
  providers: { id: OAuthProviderId; clientId: string; issuer?: string; name?: string }[];
  /** A sign-in by an unlinked provider account creates a USER. */
  signup: boolean;
}
