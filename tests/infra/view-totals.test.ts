import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { streamFunctions } from '#shared/routes/background';
import type { ServiceFunction } from '../../infra/constructs/service-function.ts';
import { FileServiceStack } from '../../infra/stack.ts';
import { flatTemplate, logicalIdOf } from '../support/stack-template.ts';

/**
 * The view totals' consumer in the stack (docs/stats.md, "Views"): the table's stream with both
 * images, one event source mapping that passes only the items holding views, in batches, with
 * partial-failure answers, bisection, bounded retries and a failed-events queue; its role may read
 * the stream, update the owners' totals, and nothing else of the table.
 */
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties are free-form JSON.
type Resource = { Type: string; Properties: any };

const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new FileServiceStack(app, 'FileService');
const template = flatTemplate(stack);
const resources = template.toJSON().Resources as Record<string, Resource>;
const [consumer] = streamFunctions;
const consumerFn = (stack.functions.get(consumer?.handler as string) as ServiceFunction).function;
const consumerId = logicalIdOf(consumerFn);
const tableId = Object.entries(resources).find(
  ([, resource]) => resource.Type === 'AWS::DynamoDB::Table',
)?.[0];

test('the table streams every change with its old and new image', () => {
  template.hasResourceProperties('AWS::DynamoDB::Table', {
    StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
  });
});

test('one mapping feeds the consumer the view items only, in batches, retried boundedly into a queue', () => {
  const mappings = Object.values(resources).filter(
    (resource) => resource.Type === 'AWS::Lambda::EventSourceMapping',
  );
  expect(mappings).toHaveLength(1);
  template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
    FunctionName: { Ref: consumerId },
    EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
    StartingPosition: 'LATEST',
    BatchSize: 100,
    MaximumBatchingWindowInSeconds: 5,
    BisectBatchOnFunctionError: true,
    MaximumRetryAttempts: 10,
    FunctionResponseTypes: ['ReportBatchItemFailures'],
    DestinationConfig: {
      OnFailure: {
        Destination: { 'Fn::GetAtt': [Match.stringLikeRegexp('^ViewsTotalsFailedEvents'), 'Arn'] },
      },
    },
  });
  const patterns = ((mappings[0]?.Properties.FilterCriteria.Filters ?? []) as { Pattern: string }[]).map(
    (filter) => JSON.parse(filter.Pattern),
  );
  expect(patterns).toEqual([
    { dynamodb: { Keys: { pk: { S: [{ prefix: 'USER#' }] }, sk: { S: [{ prefix: 'FILE#' }] } } } },
    { dynamodb: { Keys: { pk: { S: [{ prefix: 'FILEVIEWS#' }] } } } },
    { dynamodb: { Keys: { pk: { S: [{ prefix: 'LINKVIEWS#' }] } } } },
  ]);
});

test("the consumer's role: the stream read, UpdateItem on VIEWTOTALS, its queue; no other role reads the stream", () => {
  const roleId = resources[consumerId]?.Properties.Role['Fn::GetAtt'][0] as string;
  const statementsOf = (id: string) =>
    (resources[id]?.Properties.Policies ?? []).flatMap(
      (policy: { PolicyName: string; PolicyDocument: { Statement: unknown[] } }) =>
        policy.PolicyName === 'Logs' ? [] : policy.PolicyDocument.Statement,
    ) as { Action: string | string[]; Resource: unknown; Condition?: unknown }[];
  const actions = statementsOf(roleId)
    .flatMap((statement) => [statement.Action].flat())
    .sort();
  expect(actions).toEqual([
    'dynamodb:DescribeStream',
    'dynamodb:GetRecords',
    'dynamodb:GetShardIterator',
    'dynamodb:ListStreams',
    'dynamodb:UpdateItem',
    'sqs:SendMessage',
  ]);
  const update = statementsOf(roleId).find((statement) =>
    [statement.Action].flat().includes('dynamodb:UpdateItem'),
  );
  expect(JSON.stringify(update?.Condition)).toContain('VIEWTOTALS#*');
  expect(JSON.stringify(update?.Condition)).not.toMatch(/USER#|FILEVIEWS|LINKVIEWS/);
  const streamReaders = Object.entries(resources).filter(
    ([, resource]) =>
      resource.Type === 'AWS::IAM::Role' &&
      JSON.stringify(resource.Properties.Policies ?? []).includes('dynamodb:GetRecords'),
  );
  expect(streamReaders.map(([id]) => id)).toEqual([roleId]);
});
