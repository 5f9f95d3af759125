import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { BlockPublicAccess, Bucket } from 'aws-cdk-lib/aws-s3';
import { routes } from '#shared/routes/table';
import { ACCESS_LOG_FORMAT, DEFAULT_THRESHOLDS } from '../../infra/alarms.ts';
import type { ServiceFunction } from '../../infra/constructs/service-function.ts';
import { functionSpecs, isBackground } from '../../infra/functions.ts';
import { ACKNOWLEDGED, checkPolicies } from '../../infra/policy-checks.ts';
import { FileServiceStack, type FileServiceStackProps } from '../../infra/stack.ts';
import { flatTemplate, logicalIdOf } from '../support/stack-template.ts';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties are free-form JSON.
type Resource = { Type: string; Properties: any };

const outdirs: string[] = [];
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Synthesizes the whole app the way `cdk synth` does (app.ts adds the same checks), with cdk-nag's
 * AwsSolutions pack; returns the violations the validation report lists (none when synth passes).
 */
function synthesizeChecked(props: FileServiceStackProps = {}, extra?: (stack: FileServiceStack) => void) {
  const outdir = mkdtempSync(join(tmpdir(), 'file-service-nag-'));
  outdirs.push(outdir);
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new FileServiceStack(app, 'FileService', props);
  extra?.(stack);
  checkPolicies(app);
  let error: unknown;
  try {
    app.synth();
  } catch (caught) {
    error = caught;
  }
  const reportFile = join(outdir, 'validation-report.json');
  const report = existsSync(reportFile)
    ? (JSON.parse(readFileSync(reportFile, 'utf8')) as {
        pluginReports: {
          violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[];
        }[];
      })
    : { pluginReports: [] };
  const violations = report.pluginReports.flatMap((plugin) =>
    plugin.violations.flatMap((violation) =>
      violation.violatingConstructs.map((construct) => `${violation.ruleName} at ${construct.constructPath}`),
    ),
  );
  return { stack, error, violations };
}

const domain = {
  name: 'files.example.com',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
  hostedZone: { id: 'Z123', name: 'example.com' },
};
const withAlarmEmail = synthesizeChecked({ alarmEmail: 'ops@example.com' });
// Sign-in providers add the client-secrets secret (SMG4 acknowledged: the providers issue and rotate it).
const withDomain = synthesizeChecked({
  domain,
  functionAlarms: false,
  oauth: { providers: [{ id: 'github', clientId: 'github-client' }], signup: false },
});

describe('cdk-nag AwsSolutions over the whole stack', () => {
  test('no unacknowledged finding: synth passes', () => {
    expect(withAlarmEmail.violations).toEqual([]);
    expect(withAlarmEmail.error).toBeUndefined();
  });

  test('with a custom domain and a sign-in provider too (and CFR4 is then met, not acknowledged)', () => {
    const { stack, error, violations } = withDomain;
    expect(violations).toEqual([]);
    expect(error).toBeUndefined();
    const acknowledged = JSON.stringify(stack.node.findAll().flatMap((c) => c.node.metadata));
    expect(acknowledged).not.toContain('AwsSolutions-CFR4');
  });

  test('the check is live: a new finding fails synth and names the rule', () => {
    const { error, violations } = synthesizeChecked({}, (stack) => {
      new Bucket(stack, 'Unlogged', { blockPublicAccess: BlockPublicAccess.BLOCK_ALL, enforceSSL: true });
    });
    expect(violations).toEqual(['AwsSolutions-S1 at FileService/Unlogged/Resource']);
    expect(String(error)).toContain('ValidationFailed');
  });

  test('each acknowledgement gives its reason in one line', () => {
    for (const [rule, reason] of Object.entries(ACKNOWLEDGED)) {
      expect(rule).toMatch(/^[A-Z]+[0-9]+( \(.+\))?$/);
      expect(reason.length).toBeGreaterThan(30);
      expect(reason).not.toContain('\n');
    }
  });
});

describe('alarms, topic and dashboard', () => {
  const { stack } = withAlarmEmail;
  const template = flatTemplate(stack);
  const resources = template.toJSON().Resources as Record<string, Resource>;
  const ofType = (type: string) => Object.values(resources).filter((resource) => resource.Type === type);
  const topicId = Object.entries(resources).find(([, r]) => r.Type === 'AWS::SNS::Topic')?.[0] as string;

  test('an SNS topic, TLS only, with the e-mail subscribed when given', () => {
    template.resourceCountIs('AWS::SNS::Topic', 1);
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
    });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    flatTemplate(withDomain.stack).resourceCountIs('AWS::SNS::Subscription', 0);
  });

  test('every alarm notifies the topic when it fires and when it clears', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThan(5);
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.OKActions).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.TreatMissingData).toBe('notBreaching');
    }
  });

  test('one errors-and-throttles alarm per background function', () => {
    const background = functionSpecs().filter(isBackground);
    const perFunction = ofType('AWS::CloudWatch::Alarm').filter((alarm) =>
      JSON.stringify(alarm.Properties.Metrics ?? []).includes('"Throttles"'),
    );
    expect(perFunction).toHaveLength(background.length);
    for (const spec of background) {
      const logicalId = logicalIdOf((stack.functions.get(spec.handler) as ServiceFunction).function);
      expect(perFunction.some((alarm) => JSON.stringify(alarm.Properties.Metrics).includes(logicalId))).toBe(
        true,
      );
    }
  });

  test("one alarm per area, over every one of its functions' failed invocations (a metric filter on each log group)", () => {
    const areas = [...new Set(routes.map((route) => route.area))];
    for (const area of areas) {
      const metricName = `FailedInvocations-${area}`;
      const alarms = ofType('AWS::CloudWatch::Alarm').filter(
        (alarm) => alarm.Properties.MetricName === metricName,
      );
      expect([area, alarms.length, alarms[0]?.Properties.Namespace]).toEqual([area, 1, stack.stackName]);
      const fed = ofType('AWS::Logs::MetricFilter')
        .filter((filter) => filter.Properties.MetricTransformations[0].MetricName === metricName)
        .map((filter) => JSON.stringify(filter.Properties.LogGroupName));
      const handlers = functionSpecs().filter((spec) => spec.area === area);
      expect(fed).toHaveLength(handlers.length);
      for (const spec of handlers) {
        const logs = (stack.functions.get(spec.handler) as ServiceFunction).logGroup;
        expect(fed).toContain(JSON.stringify({ Ref: logicalIdOf(logs) }));
      }
    }
    // The alarm bill does not grow with the routes: per area, one alarm reading one metric.
    // Service-wide: five, and one per failed-events queue (thumbnails, exports, webhooks, view
    // totals); the background functions': thumbnails, exports, expiry, deletions, metrics, webhooks,
    // view totals.
    expect(ofType('AWS::CloudWatch::Alarm')).toHaveLength(9 + 7 + areas.length);
  });

  test('with -c alarms=false no alarm at all, the topic and the dashboard kept', () => {
    const quiet = flatTemplate(synthesizeChecked({ alarms: false }).stack);
    quiet.resourceCountIs('AWS::CloudWatch::Alarm', 0);
    quiet.resourceCountIs('AWS::SNS::Topic', 1);
    quiet.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });

  test("without per-function alarms only the five service-wide ones and the thumbnails', exports', webhooks' and view totals' failed events remain", () => {
    flatTemplate(withDomain.stack).resourceCountIs('AWS::CloudWatch::Alarm', 9);
  });

  test('API 5xx rate, DynamoDB throttles and system errors, GET /api/user p99, refused logins', () => {
    const described = ofType('AWS::CloudWatch::Alarm').map((alarm) => JSON.stringify(alarm.Properties));
    const find = (...parts: string[]) =>
      described.filter((text) => parts.every((part) => text.includes(part)));
    expect(find('5xx', 'AWS/ApiGateway')).toHaveLength(1);
    expect(find('ReadThrottleEvents', 'WriteThrottleEvents')).toHaveLength(1);
    expect(find('SystemErrors', 'TransactWriteItems')).toHaveLength(1);
    expect(
      find('UserGetLatency', '"Stat":"p99"', `"Threshold":${DEFAULT_THRESHOLDS.userLatencyP99Ms}`),
    ).toHaveLength(1);
    expect(
      find('LoginFailed', 'LoginThrottled', `"Threshold":${DEFAULT_THRESHOLDS.failedLogins}`),
    ).toHaveLength(1);
  });

  test("latency comes from the access log through a metric filter; refused logins from the login function's own metrics", () => {
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      FilterPattern: '{ $.routeKey = "GET /api/user" }',
      MetricTransformations: [Match.objectLike({ MetricName: 'UserGetLatency', MetricValue: '$.latency' })],
    });
    const accessLogFilters = ofType('AWS::Logs::MetricFilter').filter(
      (filter) => !filter.Properties.MetricTransformations[0].MetricName.startsWith('FailedInvocations-'),
    );
    expect(accessLogFilters).toHaveLength(1);
  });

  test('the access log line is JSON with numeric status and latency, and no query string', () => {
    const line = ACCESS_LOG_FORMAT.replace(/\$context\.status/, '401')
      .replace(/\$context\.responseLatency/, '12')
      .replace(/\$context\.[A-Za-z.]+/g, 'x');
    const parsed = JSON.parse(line) as Record<string, unknown>;
    expect(parsed.status).toBe(401);
    expect(parsed.latency).toBe(12);
    expect(ACCESS_LOG_FORMAT).not.toMatch(/querystring|\$request\.querystring|rawQueryString/i);
  });

  test('a CloudWatch dashboard with the same metrics', () => {
    const body = JSON.stringify(ofType('AWS::CloudWatch::Dashboard')[0]?.Properties.DashboardBody);
    for (const metric of [
      '5xx',
      'UserGetLatency',
      'LoginThrottled',
      'ReadThrottleEvents',
      'SystemErrors',
      'Throttles',
      'LoginSucceeded',
      'BytesUploaded',
      'TokenResets',
    ])
      expect(body).toContain(metric);
  });

  test('functions log at the configured level and count metrics under the stack name', () => {
    for (const service of stack.functions.values()) {
      const id = logicalIdOf(service.function);
      expect(resources[id]?.Properties.Environment.Variables).toMatchObject({
        POWERTOOLS_LOG_LEVEL: 'INFO',
        POWERTOOLS_METRICS_NAMESPACE: 'FileService',
      });
    }
  });

  test('functions write only to the log groups of their access class, with no managed policy', () => {
    const functions = ofType('AWS::Lambda::Function').filter((fn) => fn.Properties.LoggingConfig?.LogGroup);
    const roles = ofType('AWS::IAM::Role').filter((role) => role.Properties.Policies);
    expect(roles.length).toBeGreaterThan(0);
    for (const role of roles) {
      const id = Object.entries(resources).find(([, resource]) => resource === role)?.[0];
      const groups = functions
        .filter((fn) => fn.Properties.Role['Fn::GetAtt'][0] === id)
        .map((fn) => ({ 'Fn::GetAtt': [fn.Properties.LoggingConfig.LogGroup.Ref, 'Arn'] }));
      if (groups.length === 0) continue; // CDK's own deployment and auto-delete functions
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      const logs = role.Properties.Policies.find(
        (policy: { PolicyName: string }) => policy.PolicyName === 'Logs',
      );
      expect(logs.PolicyDocument.Statement).toEqual([
        expect.objectContaining({ Action: ['logs:CreateLogStream', 'logs:PutLogEvents'] }),
      ]);
      const sorted = (arns: unknown[]) => arns.map((arn) => JSON.stringify(arn)).sort();
      expect(sorted([logs.PolicyDocument.Statement[0].Resource].flat())).toEqual(sorted(groups));
    }
  });

  test('both buckets write S3 access logs to a log bucket that keeps them 90 days', () => {
    const logBucketId = Object.entries(resources).find(([id]) => id.startsWith('AccessLogs'))?.[0];
    const logged = ofType('AWS::S3::Bucket').filter((bucket) => bucket.Properties.LoggingConfiguration);
    expect(logged.map((bucket) => bucket.Properties.LoggingConfiguration.LogFilePrefix).sort()).toEqual([
      'dashboard/',
      'files/',
    ]);
    for (const bucket of logged)
      expect(bucket.Properties.LoggingConfiguration.DestinationBucketName).toEqual({ Ref: logBucketId });
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: 90 })] },
    });
  });
});

describe('custom domain', () => {
  const template = flatTemplate(withDomain.stack);

  test('the distribution answers on the name with its certificate and TLS 1.2 at least', () => {
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['files.example.com'],
        ViewerCertificate: {
          AcmCertificateArn: domain.certificateArn,
          MinimumProtocolVersion: 'TLSv1.2_2021',
          SslSupportMethod: 'sni-only',
        },
      }),
    });
  });

  test('A and AAAA alias records in the hosted zone, and DashboardUrl uses the name', () => {
    for (const type of ['A', 'AAAA'])
      template.hasResourceProperties('AWS::Route53::RecordSet', {
        Type: type,
        HostedZoneId: 'Z123',
        Name: 'files.example.com.',
      });
    template.hasOutput('DashboardUrl', { Value: 'https://files.example.com/' });
  });
});
