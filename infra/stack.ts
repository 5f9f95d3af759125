import { join } from 'node:path';
import { Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CorsHttpMethod, HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { corsPolicy } from '#shared/routes/cors';
import { FALLBACK_HANDLER } from '#shared/routes/match';
import type { Route } from '#shared/routes/route';
import { routes } from '#shared/routes/table';
import type { AlarmThresholds } from './alarms.ts';
import { ACCESS_LOG_FORMAT } from './alarms.ts';
import { AreaStack } from './area-stack.ts';
import { startBackgroundFunction, startInvokedFunction, startStreamFunction } from './background.ts';
import type { LogLevelName, OAuthSettings, ServiceFunction } from './constructs/service-function.ts';
import { Dashboard, type DashboardDomain } from './dashboard.ts';
import {
  answersRequests,
  createFunctions,
  type FunctionSettings,
  type RequestSettings,
} from './function-set.ts';
import { type FunctionSpec, functionSpecs } from './functions.ts';
import { Monitoring } from './monitoring.ts';
import { stackOutputs } from './outputs.ts';
import { acknowledgeFindings } from './policy-checks.ts';
import { PROJECT_ROOT } from './project-root.ts';
import { serviceSecrets } from './secrets.ts';
import { serviceStorage } from './storage.ts';

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
  /** Writes each bundle's esbuild metafile into its asset (for the benchmark). */
  bundleMetafile?: boolean;
  /** The built dashboard the distribution serves (default web/dist, written by `npm run build:web`). */
  dashboardAssets?: string;
  /** Subscribed to the alarm topic (`-c alarmEmail=ops@example.com`). */
  alarmEmail?: string;
  alarmThresholds?: Partial<AlarmThresholds>;
  /** An alarm per area and per background function (default); `false`: the service-wide ones only. */
  functionAlarms?: boolean;
  /** `false` (`-c alarms=false`): no alarm at all; the topic and the dashboard stay. */
  alarms?: boolean;
  /** Serve the dashboard and the API under your own name instead of *.cloudfront.net. */
  domain?: DashboardDomain;
  /** Sign-in providers (none by default): their client ids here, their client secrets in a secret. */
  oauth?: OAuthSettings;
  /** Reserve concurrency for the background functions (default; `false`: quota under 112, background.ts). */
  reserveConcurrency?: boolean;
  /** The route table (default: shared/routes/table.ts); the budget test adds synthetic routes to it. */
  routes?: readonly Route[];
  /**
   * One nested stack per area (default). `false` (`-c areas=false`) deploys the parent alone, the
   * API answering every request from the fallback: the first of the two deploys that move a
   * single-stack deployment to the areas (docs/deploy.md).
   */
  areas?: boolean;
}

/** The stack's name unless `-c stackName=` gives another (construct id and stack name alike). */
export const DEFAULT_STACK_NAME = 'FileService';

/**
 * The parent stack: what everything shares (the table, the buckets, the secrets, the HTTP API and
 * its stage, the distribution, the alarm topic and the service-wide alarms), the functions of no
 * area (background ones and the `$default` fallback), and one nested stack per area of the route
 * table holding that area's functions and routes (area-stack.ts, docs/scale.md).
 */
export class FileServiceStack extends Stack {
  /** Every service function by handler, whichever stack holds it. */
  readonly functions: ReadonlyMap<string, ServiceFunction>;
  readonly areas: readonly AreaStack[];

  constructor(scope: Construct, id: string, props: FileServiceStackProps = {}) {
    super(scope, id, props);
    // Server access logs are delivered under a bucket policy, not the legacy log-delivery ACL (which
    // the buckets' enforced object ownership forbids).
    this.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);
    const retainData = props.retainData ?? true;
    const dataRemovalPolicy = retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const logRetention = props.logRetention ?? RetentionDays.ONE_MONTH;

    const { table, accessLogBucket, files } = serviceStorage(this, retainData);

    const oauth = props.oauth?.providers.length ? props.oauth : undefined;
    const { serviceKeys, oauthClientSecrets, originSecret, setupCode } = serviceSecrets(this, {
      dataRemovalPolicy,
      signInProviders: oauth !== undefined,
    });
    const originSecretValue = originSecret.secretValue.unsafeUnwrap();

    const specs = functionSpecs(props.routes ?? routes);
    const settings: FunctionSettings = {
      resources: { table, bucket: files, serviceKeys, oauthClientSecrets, setupCode },
      oauth,
      allowedOrigins: props.allowedOrigins ?? [],
      logRetention,
      logLevel: props.logLevel ?? 'INFO',
      metricsNamespace: this.stackName,
      metafile: props.bundleMetafile === true,
    };
    // The parent keeps the functions that belong to no area: the background ones (S3 notifies the
    // thumbnail function through the bucket's one notification configuration, here) and the
    // `$default` fallback, which the API itself names.
    const arealess = specs.filter((spec) => spec.area === undefined);
    const own = createFunctions(this, arealess, settings);
    const failedEventQueues: { id: string; queue: Queue }[] = [];
    for (const spec of arealess) {
      const fn = own.functions.get(spec.handler) as ServiceFunction;
      if (spec.invoked) {
        const queue = startInvokedFunction(this, { spec, fn: fn.function, access: fn.access });
        failedEventQueues.push({ id: spec.id, queue });
        continue;
      }
      if (spec.tableStream) {
        const queue = startStreamFunction(this, { spec, fn: fn.function, access: fn.access, table });
        failedEventQueues.push({ id: spec.id, queue });
        continue;
      }
      if (spec.everyMinutes === undefined && !spec.objectEvents) continue;
      const failed = startBackgroundFunction(this, {
        spec,
        fn: fn.function,
        access: fn.access,
        bucket: files,
        reserveConcurrency: props.reserveConcurrency !== false,
      });
      if (failed) failedEventQueues.push({ id: spec.id, queue: failed });
    }
    // The areas' functions that announce uploads and links invoke it (function-set.ts).
    const deliverer = specs.find((spec) => spec.invoked !== undefined);
    if (deliverer)
      settings.webhookDeliverer = (own.functions.get(deliverer.handler) as ServiceFunction).function;
    const fallbackSpec = specs.find((spec) => spec.handler === FALLBACK_HANDLER) as FunctionSpec;
    const fallback = own.functions.get(FALLBACK_HANDLER) as ServiceFunction;

    const cors = corsPolicy(props.allowedOrigins);
    const api = new HttpApi(this, 'Api', {
      description: 'File service',
      createDefaultStage: false,
      // API Gateway's `$default` route: anything the route table does not serve gets a 404/405 body.
      defaultIntegration: new HttpLambdaIntegration(`${fallbackSpec.id}Integration`, fallback.function, {
        scopePermissionToRoute: false,
      }),
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
    const requests: RequestSettings = {
      originSecretValue,
      dashboardOrigin: `https://${props.domain?.name ?? dashboard.distribution.distributionDomainName}`,
      distribution: dashboard.distribution,
    };
    answersRequests(fallback, fallbackSpec, settings, requests);

    const areas =
      props.areas === false ? [] : [...new Set(specs.flatMap((spec) => (spec.area ? [spec.area] : [])))];
    const monitoring = new Monitoring(this, 'Monitoring', {
      api,
      table,
      accessLogs,
      functions: [...own.functions.values()].filter((fn) => fn !== fallback),
      areas,
      ...(props.alarmEmail ? { alarmEmail: props.alarmEmail } : {}),
      ...(props.alarmThresholds ? { thresholds: props.alarmThresholds } : {}),
      functionAlarms: props.functionAlarms !== false,
      alarms: props.alarms !== false,
      failedEventQueues,
    });
    // One nested stack per area of the route table: a route of a new area makes a new one.
    this.areas = areas.map(
      (area) =>
        new AreaStack(this, {
          area,
          specs: specs.filter((spec) => spec.area === area),
          api,
          settings,
          requests,
          ...(props.functionAlarms !== false && props.alarms !== false
            ? { alarmTopic: monitoring.topic }
            : {}),
        }),
    );
    const functions = new Map(own.functions);
    for (const area of this.areas) for (const [handler, fn] of area.functions) functions.set(handler, fn);
    this.functions = functions;
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
      roles: [...own.roles.values(), ...this.areas.flatMap((area) => area.roles)].map((role) => ({
        construct: role,
        objectPrefixes: role.objectPrefixes,
        readsStream: role.readsStream,
      })),
      customDomain: props.domain !== undefined,
    });

    stackOutputs(this, {
      dashboardUrl: `https://${props.domain?.name ?? dashboard.distribution.distributionDomainName}/`,
      apiUrl: stage.url,
      table,
      files,
      serviceKeys,
      setupCode,
      oauthClientSecrets,
      alarmTopic: monitoring.topic,
    });
  }
}
