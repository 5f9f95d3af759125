import { join } from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  CorsHttpMethod,
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { type AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { HttpMethods } from 'aws-cdk-lib/aws-s3';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { type IndexDefinition, type KeyAttribute, tableDefinition } from '#shared/db/table';
import { PENDING_TAG, UPLOAD_LEFTOVERS_DAYS } from '#shared/files/layout';
import { corsPolicy } from '#shared/routes/cors';
import { FALLBACK_HANDLER } from '#shared/routes/match';
import { methodsOf } from '#shared/routes/route';
import { startBackgroundFunction } from './background.ts';
import { AccessRole, accessClassOf } from './constructs/access-role.ts';
import { privateBucket } from './constructs/private-bucket.ts';
import {
  type LogLevelName,
  type OAuthSettings,
  PROJECT_ROOT,
  ServiceFunction,
} from './constructs/service-function.ts';
import { Dashboard, type DashboardDomain } from './dashboard.ts';
import { functionSpecs, usesBucket, usesTable } from './functions.ts';
import { ACCESS_LOG_FORMAT, type AlarmThresholds, Monitoring } from './monitoring.ts';
import { acknowledgeFindings } from './policy-checks.ts';
import { serviceSecrets } from './secrets.ts';

export interface FileServiceStackProps extends StackProps {
  /** Keep the table and the keys secret when the stack is deleted, and protect the table (default). */
  retainData?: boolean;
  logRetention?: RetentionDays;
  /** Functions' log level (`-c logLevel=WARN`); INFO logs one line per request. */
  logLevel?: LogLevelName;
  /** Default stage throttling: steady requests per second and burst. */
  throttle?: { rateLimit: number; burstLimit: number };
  /** Browser origins (besides the API's own) allowed to make cookie-authenticated writes. */
  allowedOrigins?: string[];
  /** Writes each bundle's esbuild metafile into its asset (the benchmark reads it; deploys leave it off). */
  bundleMetafile?: boolean;
  /** The built dashboard the distribution serves (default web/dist, written by `npm run build:web`). */
  dashboardAssets?: string;
  /** Subscribed to the alarm topic (`-c alarmEmail=ops@example.com`). */
  alarmEmail?: string;
  alarmThresholds?: Partial<AlarmThresholds>;
  /** One alarm per function (default); `false` keeps the API-wide alarms only (`-c functionAlarms=false`). */
  functionAlarms?: boolean;
  /** Serve the dashboard and the API under your own name instead of *.cloudfront.net. */
  domain?: DashboardDomain;
  /** Sign-in providers (none by default): their client ids here, their client secrets in a secret. */
  oauth?: OAuthSettings;
  /**
   * Reserve concurrency for the background functions (default; background.ts). `false` for an
   * account whose concurrency quota is under 112 (`-c reservedConcurrency=false`).
   */
  reserveConcurrency?: boolean;
}

const attribute = (key: KeyAttribute) => ({ name: key.name, type: key.type as AttributeType });

function projection(index: IndexDefinition) {
  if (index.projection === 'ALL') return { projectionType: ProjectionType.ALL };
  if (index.projection === 'KEYS_ONLY') return { projectionType: ProjectionType.KEYS_ONLY };
  return { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: index.projection };
}

/** The stack's name unless `-c stackName=` gives another (construct id and stack name alike). */
export const DEFAULT_STACK_NAME = 'FileService';

/**
 * The whole service: the table from the shared definition, the service keys secret, one function per
 * handler module of the route table (granted exactly what its routes declare) and the HTTP API.
 */
export class FileServiceStack extends Stack {
  readonly functions: ReadonlyMap<string, ServiceFunction>;

  constructor(scope: Construct, id: string, props: FileServiceStackProps = {}) {
    super(scope, id, props);
    // Server access logs are delivered under a bucket policy, not the legacy log-delivery ACL (which
    // the buckets' enforced object ownership forbids).
    this.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);
    const retainData = props.retainData ?? true;
    const dataRemovalPolicy = retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const logRetention = props.logRetention ?? RetentionDays.ONE_MONTH;

    const table = new Table(this, 'Table', {
      partitionKey: attribute(tableDefinition.partitionKey),
      sortKey: attribute(tableDefinition.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: retainData,
      removalPolicy: dataRemovalPolicy,
    });
    for (const index of tableDefinition.globalIndexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: attribute(index.partitionKey),
        sortKey: attribute(index.sortKey),
        ...projection(index),
      });
    }

    const oauth = props.oauth?.providers.length ? props.oauth : undefined;
    const { serviceKeys, oauthClientSecrets, originSecret, setupCode } = serviceSecrets(this, {
      dataRemovalPolicy,
      signInProviders: oauth !== undefined,
    });
    const originSecretValue = originSecret.secretValue.unsafeUnwrap();

    // File bytes: private, encrypted, TLS only; objects of presigned uploads that never became a
    // file (still tagged `upload=pending`) expire after a day, as does what earlier versions left
    // under `uploads/`.
    // S3 server access logs of both buckets (who read or wrote which object, when), kept 90 days.
    const accessLogBucket = privateBucket(this, 'AccessLogs', {
      retain: retainData,
      lifecycleRules: [{ id: 'ExpireAccessLogs', expiration: Duration.days(90) }],
    });
    const files = privateBucket(this, 'Files', {
      retain: retainData,
      serverAccessLogsBucket: accessLogBucket,
      serverAccessLogsPrefix: 'files/',
      lifecycleRules: [
        // A chunked upload's S3 multipart upload and staged chunks outlive its longest session.
        {
          id: 'AbortIncompleteMultipartUploads',
          abortIncompleteMultipartUploadAfter: Duration.days(UPLOAD_LEFTOVERS_DAYS),
        },
        {
          id: 'ExpireAbandonedUploads',
          prefix: 'uploads/',
          expiration: Duration.days(UPLOAD_LEFTOVERS_DAYS),
        },
        {
          id: 'ExpirePendingUploads',
          tagFilters: { [PENDING_TAG.Key]: PENDING_TAG.Value },
          expiration: Duration.days(1),
        },
      ],
      // Browsers PUT to presigned upload URLs and follow download redirects.
      cors: [
        {
          allowedOrigins: ['*'],
          allowedMethods: [HttpMethods.PUT, HttpMethods.GET, HttpMethods.HEAD],
          allowedHeaders: ['*'],
          maxAge: 3600,
        },
      ],
    });

    const specs = functionSpecs();
    const functions = new Map<string, ServiceFunction>();
    const failedEventQueues: { id: string; queue: Queue }[] = [];
    const integrations = new Map<string, HttpLambdaIntegration>();
    // One role per access class, named after the first function of the class.
    const roles = new Map<string, AccessRole>();
    const resources = { table, bucket: files, serviceKeys, oauthClientSecrets, setupCode };
    for (const spec of specs) {
      const grants = {
        ...spec,
        readsClientSecrets: oauthClientSecrets !== undefined && spec.oauth === 'secrets',
        readsSetupCode: spec.setupCode === 'checks',
      };
      const accessClass = accessClassOf(grants);
      const access = roles.get(accessClass) ?? new AccessRole(this, `${spec.id}Access`, grants, resources);
      roles.set(accessClass, access);
      const fn = new ServiceFunction(this, spec.id, {
        access,
        handler: spec.handler,
        hashesPasswords: spec.hashesPasswords,
        makesThumbnails: spec.makesThumbnails,
        scheduled: spec.everyMinutes !== undefined,
        logRetention,
        logLevel: props.logLevel ?? 'INFO',
        metricsNamespace: this.stackName,
        metafile: props.bundleMetafile === true,
      });
      if (usesTable(spec)) fn.useTable(table);
      if (spec.usesKeys) fn.useServiceKeys(serviceKeys);
      if (oauth && spec.oauth) fn.useOAuth(oauth, spec.oauth === 'secrets' ? oauthClientSecrets : undefined);
      if (usesBucket(spec)) fn.useBucket(files);
      // Both setup functions learn that a code is needed; only the one that checks it may read it.
      if (spec.setupCode) fn.useSetupCode(setupCode);
      if (props.allowedOrigins?.length)
        fn.function.addEnvironment('ALLOWED_ORIGINS', props.allowedOrigins.join(','));
      functions.set(spec.handler, fn);
      if (spec.everyMinutes !== undefined || spec.objectEvents) {
        const failed = startBackgroundFunction(this, {
          spec,
          fn: fn.function,
          access,
          bucket: files,
          reserveConcurrency: props.reserveConcurrency !== false,
        });
        if (failed) failedEventQueues.push({ id: spec.id, queue: failed });
        continue;
      }
      // One invoke permission per function for this API (not one per route: a resource each).
      integrations.set(
        spec.handler,
        new HttpLambdaIntegration(`${spec.id}Integration`, fn.function, { scopePermissionToRoute: false }),
      );
    }
    this.functions = functions;

    const cors = corsPolicy(props.allowedOrigins);
    const api = new HttpApi(this, 'Api', {
      description: 'File service',
      createDefaultStage: false,
      // API Gateway's `$default` route: anything the route table does not serve gets a 404/405 body.
      defaultIntegration: integrations.get(FALLBACK_HANDLER),
      corsPreflight: {
        allowOrigins: cors.allowOrigins,
        allowCredentials: cors.allowCredentials,
        allowMethods: cors.allowMethods.map(
          (method) => CorsHttpMethod[method as keyof typeof CorsHttpMethod],
        ),
        allowHeaders: cors.allowHeaders,
        exposeHeaders: cors.exposeHeaders,
        maxAge: Duration.seconds(cors.maxAgeSeconds),
      },
    });
    for (const spec of specs) {
      for (const route of spec.routes) {
        api.addRoutes({
          path: route.path,
          methods: methodsOf(route).map((method) => HttpMethod[method]),
          integration: integrations.get(spec.handler) as HttpLambdaIntegration,
        });
      }
    }

    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      retention: logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const throttle = props.throttle ?? { rateLimit: 100, burstLimit: 200 };
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: api,
      stageName: '$default',
      autoDeploy: true,
      throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(ACCESS_LOG_FORMAT),
      },
    });

    const dashboard = new Dashboard(this, 'Dashboard', {
      api,
      originSecret: originSecretValue,
      assetsDir: props.dashboardAssets ?? join(PROJECT_ROOT, 'web', 'dist'),
      accessLogBucket,
      ...(props.domain ? { domain: props.domain } : {}),
    });

    // The dashboard's origin: the relying party of every passkey ceremony and where the providers
    // send the browser back. Configured, never taken from a request; the functions depend on the
    // distribution, which depends on the API only (no cycle: tests/infra/dashboard.test.ts).
    const dashboardOrigin = `https://${props.domain?.name ?? dashboard.distribution.distributionDomainName}`;
    for (const spec of specs) {
      const fn = functions.get(spec.handler)?.function;
      if (!fn || spec.everyMinutes !== undefined || spec.objectEvents) continue;
      fn.addEnvironment('ORIGIN_SECRET', originSecretValue);
      // Updated after the distribution, so that on the deploy that brings the origin secret no
      // function insists on it before CloudFront sends it (cookie writes would be refused meanwhile).
      fn.node.addDependency(dashboard.distribution);
      if (spec.passkeys) fn.addEnvironment('PASSKEY_ORIGIN', dashboardOrigin);
      if (oauth && spec.oauth) fn.addEnvironment('PUBLIC_ORIGIN', dashboardOrigin);
    }

    const monitoring = new Monitoring(this, 'Monitoring', {
      api,
      table,
      accessLogs,
      functions: functions.values(),
      ...(props.alarmEmail ? { alarmEmail: props.alarmEmail } : {}),
      ...(props.alarmThresholds ? { thresholds: props.alarmThresholds } : {}),
      functionAlarms: props.functionAlarms !== false,
      failedEventQueues,
    });
    acknowledgeFindings({
      stack: this,
      serviceKeys,
      originSecret,
      setupCode,
      oauthClientSecrets,
      distribution: dashboard.distribution,
      alarmTopic: monitoring.topic,
      failedEventQueues: failedEventQueues.map(({ queue }) => queue),
      accessLogBucket,
      filesBucket: files,
      dashboardBucket: dashboard.bucket,
      functions: functions.values(),
      roles: [...roles.values()].map((role) => ({ construct: role, objectPrefixes: role.objectPrefixes })),
      customDomain: props.domain !== undefined,
    });

    new CfnOutput(this, 'DashboardUrl', {
      value: `https://${props.domain?.name ?? dashboard.distribution.distributionDomainName}/`,
      description: 'The dashboard, and the API under the same origin (/api/..., /raw/...)',
    });
    new CfnOutput(this, 'ApiUrl', {
      value: stage.url,
      description: "The API's own URL, for token clients (ShareX, CLIs); browsers use DashboardUrl",
    });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'BucketName', { value: files.bucketName });
    new CfnOutput(this, 'ServiceKeysSecretArn', { value: serviceKeys.secretArn });
    new CfnOutput(this, 'SetupCodeCommand', {
      value: `aws secretsmanager get-secret-value --secret-id ${setupCode.secretArn} --query SecretString --output text`,
      description: 'Prints the one-time code the first-run page asks for',
    });
    if (oauthClientSecrets)
      new CfnOutput(this, 'OAuthClientSecretsArn', {
        value: oauthClientSecrets.secretArn,
        description: 'Put the providers\' client secrets here: {"github": "...", "oidc": "..."}',
      });
    new CfnOutput(this, 'AlarmTopicArn', { value: monitoring.topic.topicArn });
  }
}
