import { type App, type CfnElement, DefaultStackSynthesizer, Names, Stack, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/** Runs cdk-nag's AwsSolutions pack over everything in the app when it synthesizes (deploy included). */
export function checkPolicies(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}

/**
 * Every AwsSolutions finding the stack keeps on purpose, one line each: the rule and why. Anything
 * not acknowledged here fails `cdk synth` and tests/infra/policy.test.ts.
 */
export const ACKNOWLEDGED = {
  APIG4:
    'Every route authenticates in its handler (session cookie or API token, one shared module); public routes are public by design',
  SMG4: 'Rotating the master key is a manual, documented step (docs/operations.md, key rotation): an automatic one would end every session and token',
  'SMG4 (origin secret)':
    'It only tells CloudFront’s requests from direct ones; a new value takes a deploy that changes both (docs/security.md)',
  'SMG4 (setup code)': 'Used once, for the first account; worthless once setup is done',
  'SMG4 (OAuth client secrets)':
    'The providers issue their client secrets: they are rotated at the provider and put into the secret by hand (docs/deploy.md)',
  SNS2: 'Alarm notices carry no data; CloudWatch cannot publish to a topic under the AWS-managed SNS key, and a customer key costs $1/month',
  SQS3: 'This queue is itself where a background function’s failed events end (its on-failure destination), behind an alarm',
  S1: 'This is the access-log bucket itself: logging it into itself would loop',
  CFR1: 'Who may fetch shared links is the owner’s choice; geo restriction stays an operator option',
  CFR2: 'WAF costs at least $5/month plus per request; the API has its own stage throttle and login throttle (docs/operations.md)',
  CFR3: 'CloudFront access logs record query strings, which carry file passwords (/raw/{name}?pw=); API Gateway logs each API request without them',
  CFR4: 'The default *.cloudfront.net certificate cannot require TLS 1.2; with a custom domain (-c domainName) the distribution does',
  'IAM5 (functions)':
    'Object keys are per-file ids: each function’s object grants end in a key prefix its routes declare',
  'IAM5 (stream listing)':
    'Lambda’s stream event source needs dynamodb:ListStreams, which names no resource; the role’s stream reads name the table’s stream',
  'L1 (functions)':
    'Node.js 22 is a supported LTS runtime; it moves together with the bundles’ esbuild target, tested together',
  'IAM4 (CDK deployment)': 'CDK’s own function that deploys the dashboard assets: its role is CDK’s',
  'IAM5 (CDK deployment)':
    'CDK’s own function copies the dashboard from CDK’s assets bucket into the dashboard bucket',
  'L1 (CDK deployment)': 'CDK’s own function that deploys the dashboard assets: its runtime is CDK’s',
  'IAM4 (CDK notifications)':
    'CDK’s own function that sets the files bucket’s event notification (thumbnails): its role is CDK’s',
  'IAM5 (CDK notifications)':
    'CDK’s own function that sets the files bucket’s event notification: PutBucketNotification is CDK’s grant',
} as const;

type Acknowledged = keyof typeof ACKNOWLEDGED;

/** Acknowledges a rule, or (rules that report one finding per action or resource) those findings. */
function acknowledge(scope: IConstruct, entry: Acknowledged, findings: string[] = []): void {
  const rule = entry.split(' ')[0] as string;
  const ids = findings.length ? findings.map((finding) => `${rule}[${finding}]`) : [rule];
  for (const id of ids)
    Validations.of(scope).acknowledge({ id: `AwsSolutions-${id}`, reason: ACKNOWLEDGED[entry] });
}

/**
 * How cdk-nag names a bucket's objects in an IAM finding of `holder`: `Resource::<LogicalId.Arn>/prefix*`
 * in the bucket's stack, `Resource::<referenceto…Arn>/prefix*` (the nested stack parameter CDK
 * makes for the bucket's ARN) in an area's.
 */
function objectsOf(bucket: IConstruct, prefix: string, holder: IConstruct = bucket): string {
  const resource = bucket.node.defaultChild as CfnElement;
  const name =
    Stack.of(holder) === Stack.of(bucket)
      ? `${Stack.of(bucket).getLogicalId(resource)}.Arn`
      : `referenceto${Names.nodeUniqueId(resource.node).replace(/[^A-Za-z0-9]/g, '')}Arn`;
  return `Resource::<${name}>/${prefix}*`;
}

export interface AcknowledgedParts {
  stack: Stack;
  serviceKeys: IConstruct;
  originSecret: IConstruct;
  setupCode: IConstruct;
  /** The sign-in providers' client secrets, when a provider is configured. */
  oauthClientSecrets: IConstruct | undefined;
  distribution: IConstruct;
  alarmTopic: IConstruct;
  /** Background functions' on-failure destinations (themselves the dead letters). */
  failedEventQueues: Iterable<IConstruct>;
  accessLogBucket: IConstruct;
  filesBucket: IConstruct;
  dashboardBucket: IConstruct;
  /** The service functions. */
  functions: Iterable<IConstruct>;
  /** Each access class's role with the key prefixes its object grants end in. */
  roles: Iterable<{ construct: IConstruct; objectPrefixes: string[]; readsStream: boolean }>;
  /** With a custom domain the distribution requires TLS 1.2, so CFR4 is not acknowledged. */
  customDomain: boolean;
}

export function acknowledgeFindings(parts: AcknowledgedParts): void {
  const { stack, distribution } = parts;
  acknowledge(stack, 'APIG4');
  acknowledge(parts.serviceKeys, 'SMG4');
  acknowledge(parts.originSecret, 'SMG4 (origin secret)');
  acknowledge(parts.setupCode, 'SMG4 (setup code)');
  if (parts.oauthClientSecrets) acknowledge(parts.oauthClientSecrets, 'SMG4 (OAuth client secrets)');
  acknowledge(parts.alarmTopic, 'SNS2');
  for (const queue of parts.failedEventQueues) acknowledge(queue, 'SQS3');
  acknowledge(parts.accessLogBucket, 'S1');
  for (const rule of ['CFR1', 'CFR2', 'CFR3'] as const) acknowledge(distribution, rule);
  if (!parts.customDomain) acknowledge(distribution, 'CFR4');
  for (const role of parts.roles) {
    const objects = role.objectPrefixes.map((prefix) => objectsOf(parts.filesBucket, prefix, role.construct));
    if (objects.length) acknowledge(role.construct, 'IAM5 (functions)', objects);
    if (role.readsStream) acknowledge(role.construct, 'IAM5 (stream listing)', ['Resource::*']);
  }
  for (const fn of parts.functions) acknowledge(fn, 'L1 (functions)');
  const qualifier: unknown = stack.node.tryGetContext('@aws-cdk/core:bootstrapQualifier');
  const cdkAssets = `cdk-${typeof qualifier === 'string' ? qualifier : DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-<AWS::AccountId>-<AWS::Region>`;
  const deploymentFindings = [
    ...['GetObject*', 'GetBucket*', 'List*', 'DeleteObject*', 'Abort*'].map(
      (action) => `Action::s3:${action}`,
    ),
    `Resource::arn:<AWS::Partition>:s3:::${cdkAssets}/*`,
    objectsOf(parts.dashboardBucket, ''),
  ];
  for (const child of stack.node.children) {
    if (child.node.id.startsWith('BucketNotificationsHandler')) {
      acknowledge(child, 'IAM4 (CDK notifications)', [
        'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
      ]);
      acknowledge(child, 'IAM5 (CDK notifications)', ['Resource::*']);
    }
    if (!child.node.id.startsWith('Custom::CDKBucketDeployment')) continue;
    acknowledge(child, 'IAM4 (CDK deployment)', [
      'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
    ]);
    acknowledge(child, 'IAM5 (CDK deployment)', deploymentFindings);
    acknowledge(child, 'L1 (CDK deployment)');
  }
}
