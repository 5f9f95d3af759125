import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { EXPORT_DAYS } from '#shared/exports/model';
import { LONG_RUN_SECONDS } from '#shared/routes/background';
import { FileServiceStack } from '../../infra/stack.ts';
import { flatTemplate, logicalIdOf } from '../support/stack-template.ts';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties are free-form JSON.
type Resource = { Type: string; Properties: any };

/** Synthesized without bundling (the bundles have their own test file). */
const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new FileServiceStack(app, 'FileService');
const template = flatTemplate(stack);
const resources = template.toJSON().Resources as Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const filesBucketId = ofType('AWS::S3::Bucket').find(([id]) => id.startsWith('Files'))?.[0] as string;
const functionId = (handler: string) => logicalIdOf(stack.functions.get(handler)?.function as never);

type Statement = { Action: string | string[]; Resource: unknown };

/** Every `s3:<action> on <prefix>*` of the files bucket a function's role is granted. */
function objectGrants(handler: string): string[] {
  const roleId = resources[functionId(handler)]?.Properties.Role['Fn::GetAtt'][0];
  const statements: Statement[] = ofType('AWS::IAM::Policy')
    .filter(([, policy]) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
  const inline: Statement[] = (resources[roleId]?.Properties.Policies ?? []).flatMap(
    (policy: { PolicyDocument: { Statement: Statement[] } }) => policy.PolicyDocument.Statement,
  );
  return [...statements, ...inline].flatMap((statement) =>
    [statement.Action].flat().flatMap((action: string) =>
      [statement.Resource].flat().flatMap((resource: unknown) => {
        const joined = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join']?.[1];
        const onBucket =
          JSON.stringify(joined?.[0]) === JSON.stringify({ 'Fn::GetAtt': [filesBucketId, 'Arn'] });
        return onBucket ? [`${action} on ${String(joined?.[1]).slice(1)}`] : [];
      }),
    ),
  );
}

const handlers = [...stack.functions.keys()];
const holding = (grant: string) => handlers.filter((handler) => objectGrants(handler).includes(grant)).sort();

describe('exports (issue 36)', () => {
  test('the export function: Lambda’s 15 minutes, 1,024 MB, no API route, no reserved concurrency, failures kept in a queue', () => {
    const fn = resources[functionId('exports/make')]?.Properties;
    expect(fn).toMatchObject({ Timeout: LONG_RUN_SECONDS, MemorySize: 1024 });
    expect(LONG_RUN_SECONDS).toBe(900);
    expect(fn.ReservedConcurrentExecutions).toBeUndefined();
    const routed = ofType('AWS::ApiGatewayV2::Integration').map(
      ([, integration]) => integration.Properties.IntegrationUri['Fn::GetAtt']?.[0],
    );
    expect(routed).not.toContain(functionId('exports/make'));
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: functionId('exports/make') },
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
  });

  test(`zips expire after ${EXPORT_DAYS} days and request objects after one, by the bucket’s lifecycle rules`, () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({ Prefix: 'exports/', ExpirationInDays: EXPORT_DAYS, Status: 'Enabled' }),
          Match.objectLike({ Prefix: 'export-requests/', ExpirationInDays: 1, Status: 'Enabled' }),
        ]),
      },
    });
    // The table's TTL removes the export items (the listing hides them at expiry already).
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
  });

  test('only the export function writes exports/ and reads files for them; the routes touch only their own prefixes', () => {
    expect(holding('s3:PutObject on exports/*')).toEqual(['exports/make']);
    expect(holding('s3:AbortMultipartUpload on exports/*')).toEqual(['exports/make']);
    expect(holding('s3:PutObject on export-requests/*')).toEqual(['user/export-start']);
    expect(objectGrants('exports/make').sort()).toEqual([
      's3:AbortMultipartUpload on exports/*',
      's3:DeleteObject on export-requests/*',
      's3:DeleteObject on exports/*',
      's3:GetObject on files/*',
      's3:PutObject on exports/*',
    ]);
    expect(objectGrants('user/export-list')).toEqual(['s3:GetObject on exports/*']);
    expect(objectGrants('user/export-start')).toEqual(['s3:PutObject on export-requests/*']);
    expect(objectGrants('user/export-delete')).toEqual(['s3:DeleteObject on exports/*']);
    // A deleted user's zips go with the user's other objects.
    expect(holding('s3:DeleteObject on exports/*')).toEqual(
      ['exports/make', 'user/export-delete', 'users/continue-deletions', 'users/delete'].sort(),
    );
  });
});
