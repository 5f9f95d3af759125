import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { ORIGIN_SECRET_HEADER } from '#shared/http/distribution';
import { routes } from '#shared/routes/table';
import { FAILED_EVENT_RETENTION, RESERVED_CONCURRENCY } from '../../infra/background.ts';
import { API_PATHS, UNCACHED_ERROR_STATUSES } from '../../infra/dashboard.ts';
import { functionSpecs, isBackground } from '../../infra/functions.ts';
import { FileServiceStack, type FileServiceStackProps } from '../../infra/stack.ts';
import { flatTemplate, logicalIdOf } from '../support/stack-template.ts';

// What a real account does that the local runner never shows (issue 30): who may speak for the
// viewer, retries and failures of the background functions, error caching, names, first-run setup.

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties are free-form JSON.
type Resource = { Type: string; Properties: any };

function synthesize(props: FileServiceStackProps = {}, id = 'FileService') {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new FileServiceStack(app, id, props);
  const resources = flatTemplate(stack).toJSON().Resources as Record<string, Resource>;
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  const idOf = (handler: string) => {
    const fn = stack.functions.get(handler);
    if (!fn) throw new Error(`no function for ${handler}`);
    return logicalIdOf(fn.function);
  };
  const environmentOf = (handler: string) =>
    resources[idOf(handler)]?.Properties.Environment.Variables as Record<string, unknown>;
  const distribution = ofType('AWS::CloudFront::Distribution')[0]?.[1].Properties.DistributionConfig;
  return { stack, resources, ofType, idOf, environmentOf, distribution };
}

const DOMAIN = 'files.example.com';
const plain = synthesize();
const custom = synthesize(
  {
    domain: { name: DOMAIN, certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc' },
    oauth: { providers: [{ id: 'github', clientId: 'github-client' }], signup: false },
    reserveConcurrency: false,
  },
  'FilesSecond',
);
const specs = functionSpecs();
const SWEEP = 'files/expire';
const THUMBNAILS = 'thumbnails/make';
const background = specs.filter(isBackground);
const apiFunctions = specs.filter((spec) => !background.includes(spec));
const invokeConfigOf = (synth: typeof plain, handler: string) =>
  synth
    .ofType('AWS::Lambda::EventInvokeConfig')
    .map(([, config]) => config.Properties)
    .find((config) => JSON.stringify(config.FunctionName).includes(synth.idOf(handler)));

describe('viewer headers count only from the distribution', () => {
  const apiOrigin = () =>
    plain.distribution.Origins.find((origin: { CustomOriginConfig?: unknown }) => origin.CustomOriginConfig);
  const secretId = plain
    .ofType('AWS::SecretsManager::Secret')
    .find(([id]) => id.startsWith('OriginSecret'))?.[0];

  test('CloudFront adds the origin secret to every API request, from a generated secret (no value in the template)', () => {
    const header = apiOrigin().OriginCustomHeaders.find(
      (custom: { HeaderName: string }) => custom.HeaderName === ORIGIN_SECRET_HEADER,
    );
    const value = JSON.stringify(header.HeaderValue);
    expect(value).toContain('{{resolve:secretsmanager:');
    expect(value).toContain(secretId);
    expect(plain.resources[secretId as string]?.Properties.GenerateSecretString).toMatchObject({
      PasswordLength: 48,
    });
  });

  test.each(apiFunctions.map((spec) => spec.handler))('%s gets the same secret to check', (handler) => {
    expect(JSON.stringify(plain.environmentOf(handler).ORIGIN_SECRET)).toBe(
      JSON.stringify(
        apiOrigin().OriginCustomHeaders.find(
          (custom: { HeaderName: string }) => custom.HeaderName === ORIGIN_SECRET_HEADER,
        ).HeaderValue,
      ),
    );
  });

  test('background functions, which answer no request, get none', () => {
    for (const spec of background) expect(plain.environmentOf(spec.handler).ORIGIN_SECRET).toBeUndefined();
  });
});

describe('the dashboard origin is configuration, never a request header', () => {
  test('every passkey ceremony is flagged in the route table', () => {
    const ceremonies = routes.filter((route) => route.path.includes('passkey') && route.method === 'POST');
    expect(ceremonies.map((route) => route.handler).sort()).toEqual([
      'auth/passkey-options',
      'auth/passkey-sign-in',
      'user/passkeys-options',
      'user/passkeys-register',
    ]);
    for (const route of ceremonies) expect(route.passkeys).toBe(true);
  });

  test.each(specs.filter((spec) => spec.passkeys).map((spec) => spec.handler))(
    '%s knows the origin: the distribution name, or the custom domain',
    (handler) => {
      expect(JSON.stringify(plain.environmentOf(handler).PASSKEY_ORIGIN)).toMatch(
        /"https:\/\/",\{"Fn::GetAtt":\["Dashboard\w+","DomainName"\]\}/,
      );
      expect(custom.environmentOf(handler).PASSKEY_ORIGIN).toBe(`https://${DOMAIN}`);
    },
  );

  test('the sign-in provider functions send the browser back to the configured origin', () => {
    for (const spec of specs.filter((candidate) => candidate.oauth))
      expect(custom.environmentOf(spec.handler).PUBLIC_ORIGIN).toBe(`https://${DOMAIN}`);
  });

  test("with a custom domain every behaviour redirects the distribution's own name to it", () => {
    const behaviours = [custom.distribution.DefaultCacheBehavior, ...custom.distribution.CacheBehaviors];
    expect(behaviours).toHaveLength(API_PATHS.length + 2);
    for (const behaviour of behaviours) {
      const [association] = behaviour.FunctionAssociations;
      const code = custom.resources[association.FunctionARN['Fn::GetAtt'][0]]?.Properties.FunctionCode;
      expect(code).toContain(`var CANONICAL_HOST = '${DOMAIN}';`);
      expect(code).toContain('canonicalRedirect(');
    }
  });
});

describe('background functions: retries, failures, concurrency', () => {
  test('the sweep runs at most once a minute: no Lambda retry, no event older than a minute, one at a time', () => {
    expect(invokeConfigOf(plain, SWEEP)).toMatchObject({
      MaximumRetryAttempts: 0,
      MaximumEventAgeInSeconds: 60,
    });
    const rule = plain.ofType('AWS::Events::Rule')[0]?.[1].Properties;
    expect(rule.ScheduleExpression).toBe('rate(1 minute)');
    expect(rule.Targets[0].RetryPolicy).toEqual({ MaximumRetryAttempts: 0 });
    expect(plain.resources[plain.idOf(SWEEP)]?.Properties.ReservedConcurrentExecutions).toBe(
      RESERVED_CONCURRENCY.scheduled,
    );
  });

  test('thumbnail events that fail three times land in an encrypted queue, behind an alarm to the topic', () => {
    const config = invokeConfigOf(plain, THUMBNAILS);
    expect(config.MaximumRetryAttempts).toBe(2);
    const queueId = config.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0];
    expect(plain.resources[queueId]).toMatchObject({
      Type: 'AWS::SQS::Queue',
      Properties: {
        SqsManagedSseEnabled: true,
        MessageRetentionPeriod: FAILED_EVENT_RETENTION.toSeconds(),
      },
    });
    const alarm = plain
      .ofType('AWS::CloudWatch::Alarm')
      .map(([, candidate]) => candidate.Properties)
      .find((candidate) => JSON.stringify(candidate.Dimensions ?? []).includes(queueId));
    expect(alarm).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [{ Ref: expect.stringMatching(/^MonitoringAlarms/) }],
    });
    // The function's own role may send there (inline, no policy resource beside it).
    const role = plain.resources[plain.resources[plain.idOf(THUMBNAILS)]?.Properties.Role['Fn::GetAtt'][0]];
    expect(JSON.stringify(role?.Properties.Policies)).toContain(
      JSON.stringify({
        Action: 'sqs:SendMessage',
        Effect: 'Allow',
        Resource: { 'Fn::GetAtt': [queueId, 'Arn'] },
      }),
    );
  });

  test('only the background functions reserve concurrency (12 in all), and none with reserveConcurrency: false', () => {
    const reserved = plain
      .ofType('AWS::Lambda::Function')
      .filter(([, fn]) => fn.Properties.ReservedConcurrentExecutions !== undefined)
      .map(([id, fn]) => [id, fn.Properties.ReservedConcurrentExecutions]);
    expect(Object.fromEntries(reserved)).toEqual({
      [plain.idOf(SWEEP)]: RESERVED_CONCURRENCY.scheduled,
      [plain.idOf('users/continue-deletions')]: RESERVED_CONCURRENCY.scheduled,
      [plain.idOf(THUMBNAILS)]: RESERVED_CONCURRENCY.objectEvents,
    });
    expect(
      custom
        .ofType('AWS::Lambda::Function')
        .filter(([, fn]) => fn.Properties.ReservedConcurrentExecutions !== undefined),
    ).toEqual([]);
  });
});

describe('error answers are never cached by the distribution', () => {
  test.each(UNCACHED_ERROR_STATUSES)('%s: cached 0 s, passed on as the origin answered', (status) => {
    expect(plain.distribution.CustomErrorResponses).toContainEqual({
      ErrorCode: status,
      ErrorCachingMinTTL: 0,
    });
  });
});

describe('a second deployment in the same account', () => {
  test("account-wide names carry the stack's name and region", () => {
    for (const synth of [plain, custom]) {
      const name = synth.stack.stackName;
      const policy = synth.ofType('AWS::CloudFront::ResponseHeadersPolicy')[0]?.[1].Properties;
      expect(policy.ResponseHeadersPolicyConfig.Name).toEqual({
        'Fn::Join': ['', [`${name}-`, { Ref: 'AWS::Region' }, '-security-headers']],
      });
      const dashboard = synth.ofType('AWS::CloudWatch::Dashboard')[0]?.[1].Properties;
      expect(dashboard.DashboardName).toEqual({
        'Fn::Join': ['', [`${name}-`, { Ref: 'AWS::Region' }, '-operations']],
      });
    }
    expect(custom.stack.stackName).toBe('FilesSecond');
  });

  test('no other resource has a fixed name', () => {
    // Names that must be unique in an account or region, written as a literal in the template.
    const NAMES =
      /^(FunctionName|RoleName|TableName|BucketName|TopicName|QueueName|LogGroupName|Name|DashboardName|AlarmName)$/;
    const fixed = Object.entries(plain.resources).flatMap(([, resource]) =>
      Object.entries(resource.Properties ?? {})
        .filter(([key, value]) => NAMES.test(key) && typeof value === 'string')
        .map(([key, value]) => `${resource.Type} ${key}=${value}`),
    );
    // An HTTP API's name need not be unique (its id is what addresses it).
    expect(fixed).toEqual(['AWS::ApiGatewayV2::Api Name=Api']);
  });
});

describe('first-run setup needs the deployment’s code in AWS', () => {
  const secretId = plain
    .ofType('AWS::SecretsManager::Secret')
    .find(([id]) => id.startsWith('SetupCode'))?.[0];

  test('a generated code; both setup functions know of it, only POST /api/setup may read it', () => {
    expect(plain.resources[secretId as string]?.Properties.GenerateSecretString).toMatchObject({
      PasswordLength: 24,
      ExcludePunctuation: true,
    });
    for (const handler of ['setup/get', 'setup/post'])
      expect(plain.environmentOf(handler).SETUP_CODE_SECRET_ARN).toEqual({ Ref: secretId });
    const readers = plain
      .ofType('AWS::IAM::Role')
      .filter(([, role]) => JSON.stringify(role.Properties.Policies ?? []).includes(`"Ref":"${secretId}"`))
      .map(([id]) => id);
    const roleOf = (handler: string) =>
      plain.resources[plain.idOf(handler)]?.Properties.Role['Fn::GetAtt'][0] as string;
    expect(readers).toEqual([roleOf('setup/post')]);
  });

  test('the deploy prints the command that shows the code, not the code', () => {
    const outputs = flatTemplate(plain.stack).findOutputs('SetupCodeCommand');
    expect(JSON.stringify(outputs)).toContain('aws secretsmanager get-secret-value --secret-id ');
    expect(JSON.stringify(outputs)).toContain(secretId);
    flatTemplate(plain.stack).hasOutput('SetupCodeCommand', { Value: Match.anyValue() });
  });
});
