import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { invokedFunctions } from '#shared/routes/background';
import type { ServiceFunction } from '../../infra/constructs/service-function.ts';
import { FileServiceStack } from '../../infra/stack.ts';
import { flatTemplate, logicalIdOf } from '../support/stack-template.ts';

/**
 * The webhook deliverer in the stack (docs/webhooks.md): invoked asynchronously by the functions that
 * announce uploads and links and by no other (their roles alone may, and they alone know its name),
 * retried twice by Lambda before its failed-events queue, never allowed to reach loopback.
 */
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties are free-form JSON.
type Resource = { Type: string; Properties: any };

const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new FileServiceStack(app, 'FileService');
const template = flatTemplate(stack);
const resources = template.toJSON().Resources as Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const [deliverer] = invokedFunctions;
const idOf = (handler: string) => logicalIdOf((stack.functions.get(handler) as ServiceFunction).function);
const delivererId = idOf(deliverer?.handler as string);
const emitters = deliverer?.invokedBy ?? [];

test('the deliverer is declared for the four routes that store an upload or make a link', () => {
  expect(deliverer).toMatchObject({
    handler: 'webhooks/deliver',
    invokedBy: ['files/upload', 'files/upload-partial', 'files/upload-complete', 'links/create'],
  });
  expect(resources[delivererId]?.Properties).toMatchObject({ Timeout: 30 });
});

test('Lambda retries a failed delivery twice within an hour, then keeps it in a queue', () => {
  template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
    FunctionName: { Ref: delivererId },
    MaximumRetryAttempts: 2,
    MaximumEventAgeInSeconds: 3600,
    DestinationConfig: {
      OnFailure: {
        Destination: { 'Fn::GetAtt': [Match.stringLikeRegexp('^WebhooksDeliverFailedEvents'), 'Arn'] },
      },
    },
  });
});

test('only the emitting functions’ roles may invoke it, and only they are told its name', () => {
  const invokingRoles = ofType('AWS::IAM::Role').flatMap(([id, role]) => {
    const statements = (role.Properties.Policies ?? []).flatMap(
      (policy: { PolicyDocument: { Statement: unknown[] } }) => policy.PolicyDocument.Statement,
    ) as { Action: string | string[]; Resource: unknown }[];
    const invokes = statements.filter((statement) =>
      [statement.Action].flat().includes('lambda:InvokeFunction'),
    );
    for (const statement of invokes)
      expect(statement.Resource).toEqual({ 'Fn::GetAtt': [delivererId, 'Arn'] });
    return invokes.length ? [id] : [];
  });
  const functions = ofType('AWS::Lambda::Function');
  const roleOf = (id: string) => resources[id]?.Properties.Role['Fn::GetAtt'][0];
  const emitterIds = emitters.map(idOf);
  expect(new Set(invokingRoles)).toEqual(new Set(emitterIds.map(roleOf)));
  // No function outside the emitters shares one of their roles.
  const withInvokingRole = functions.filter(([id]) => invokingRoles.includes(roleOf(id))).map(([id]) => id);
  expect(withInvokingRole.sort()).toEqual([...emitterIds].sort());
  const told = functions
    .filter(([, fn]) => fn.Properties.Environment?.Variables?.WEBHOOKS_FUNCTION_NAME !== undefined)
    .map(([id, fn]) => {
      expect(fn.Properties.Environment.Variables.WEBHOOKS_FUNCTION_NAME).toEqual({ Ref: delivererId });
      return id;
    });
  expect(told.sort()).toEqual([...emitterIds].sort());
});

test('the deliverer reads the settings item and nothing else of the table; it invokes nothing', () => {
  const role = resources[delivererId]?.Properties.Role['Fn::GetAtt'][0];
  const statements = resources[role]?.Properties.Policies.flatMap(
    (policy: { PolicyDocument: { Statement: unknown[] } }) => policy.PolicyDocument.Statement,
  ) as { Action: string | string[]; Condition?: unknown }[];
  const actions = statements.flatMap((statement) => [statement.Action].flat());
  expect(actions.filter((action) => action.startsWith('dynamodb:'))).toEqual(['dynamodb:GetItem']);
  expect(actions).not.toContain('lambda:InvokeFunction');
  expect(JSON.stringify(statements)).toContain('SETTINGS');
});

test('no function of the stack may reach loopback: WEBHOOKS_ALLOW_LOOPBACK is never set', () => {
  for (const [, fn] of ofType('AWS::Lambda::Function')) {
    expect(fn.Properties.Environment?.Variables ?? {}).not.toHaveProperty('WEBHOOKS_ALLOW_LOOPBACK');
  }
});
