import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { PARTITION_PATTERNS, type Partition } from '#shared/db/keys/partitions';
import { USERS_INDEX } from '#shared/db/keys/users';
import { createTableInput, tableDefinition } from '#shared/db/table';
import { UPLOAD_SESSION_DAYS } from '#shared/files/layout';
import { API_FUNCTION_SECONDS } from '#shared/http/handler';
import { ZIPLINE_HEADER_NAMES } from '#shared/http/zipline-headers';
import {
  invokedFunctions,
  objectEventFunctions,
  SCHEDULED_FUNCTION_SECONDS,
  scheduledFunctions,
  streamFunctions,
} from '#shared/routes/background';
import { corsPolicy } from '#shared/routes/cors';
import type { Route } from '#shared/routes/route';
import { routes } from '#shared/routes/table';
import { parseServiceKeys } from '#shared/secrets';
import { accessClassOf } from '../../infra/constructs/access-role.ts';
import { MEMORY_MB, memoryOf } from '../../infra/constructs/service-function.ts';
import { type FunctionSpec, functionSpecs, usesBucket, usesTable } from '../../infra/functions.ts';
import { FileServiceStack, type FileServiceStackProps } from '../../infra/stack.ts';
import { flatTemplate, logicalIdOf } from '../support/stack-template.ts';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties are free-form JSON.
type Resource = { Type: string; Properties: any; DeletionPolicy?: string };

/** Synthesizes the stack without bundling (the bundles have their own test file). */
function synthesize(props: FileServiceStackProps = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new FileServiceStack(app, 'FileService', props);
  return { stack, template: flatTemplate(stack) };
}

const { stack, template } = synthesize();
const resources = template.toJSON().Resources as Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const specs = functionSpecs();
/** The files bucket (the dashboard has a bucket of its own). */
const filesBucketId = ofType('AWS::S3::Bucket').find(([id]) => id.startsWith('Files'))?.[0] as string;

function functionLogicalId(handler: string): string {
  const fn = stack.functions.get(handler);
  if (!fn) throw new Error(`no function for ${handler}`);
  return logicalIdOf(fn.function);
}

/** The function an API route invokes: route → integration → Lambda ARN. */
function targetFunction(routeKey: string): string {
  const found = ofType('AWS::ApiGatewayV2::Route').filter(
    ([, route]) => route.Properties.RouteKey === routeKey,
  );
  expect(found).toHaveLength(1);
  const target = JSON.stringify(found[0]?.[1].Properties.Target);
  const integrationId = /"Ref":"([^"]+)"/.exec(target)?.[1] as string;
  return resources[integrationId]?.Properties.IntegrationUri['Fn::GetAtt'][0];
}

/** A function's role (shared by the functions with the same access): its logical id. */
const roleOf = (handler: string): string =>
  resources[functionLogicalId(handler)]?.Properties.Role['Fn::GetAtt'][0];

/** Every IAM statement of a function's role but its log statement: inline, or in attached policies. */
// biome-ignore lint/suspicious/noExplicitAny: IAM statements are free-form JSON.
function statementsOf(handler: string): any[] {
  const roleRef = roleOf(handler);
  // biome-ignore lint/suspicious/noExplicitAny: IAM policies are free-form JSON.
  const inline = (resources[roleRef]?.Properties.Policies ?? []) as any[];
  return [
    ...inline.filter((policy) => policy.PolicyName !== 'Logs'),
    ...ofType('AWS::IAM::Policy')
      .filter(([, policy]) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleRef))
      .map(([, policy]) => policy.Properties),
  ].flatMap((policy) => policy.PolicyDocument.Statement);
}

describe('roles and permissions', () => {
  test('functions of a stack with the same access share one role; each function has one invoke permission', () => {
    // A role serves the functions of one stack (an area, or the parent's background functions).
    const classOf = (spec: FunctionSpec) => `${spec.area ?? 'parent'} ${accessClassOf(spec)}`;
    const classes = new Set(specs.map(classOf));
    expect(new Set(specs.map((spec) => roleOf(spec.handler))).size).toBe(classes.size);
    for (const spec of specs) {
      const same = specs.filter((other) => classOf(other) === classOf(spec));
      expect(new Set(same.map((other) => roleOf(other.handler)))).toEqual(new Set([roleOf(spec.handler)]));
    }
    // Grants live in the roles themselves: no policy resource beside them (CDK's own functions aside).
    expect(ofType('AWS::IAM::Policy').filter(([id]) => specs.some((spec) => id.startsWith(spec.id)))).toEqual(
      [],
    );
    const routed = specs.filter((spec) => spec.routes.length > 0 || spec.handler === 'fallback');
    for (const spec of routed) {
      const permissions = ofType('AWS::Lambda::Permission').filter(
        ([, permission]) =>
          JSON.stringify(permission.Properties.FunctionName).includes(functionLogicalId(spec.handler)) &&
          permission.Properties.Principal === 'apigateway.amazonaws.com',
      );
      expect(permissions).toHaveLength(1);
    }
  });
});

describe('functions and routes come from the route table', () => {
  test.each(routes.map((route) => [`${route.method} ${route.path}`, route.handler]))(
    '%s has an API route invoking the function of %s',
    (routeKey, handler) => {
      expect(targetFunction(routeKey)).toBe(functionLogicalId(handler));
    },
  );

  test.each(routes.filter((route) => route.method === 'GET').map((route) => [route.path, route.handler]))(
    'HEAD %s invokes the same function as its GET (API Gateway answers HEAD only on a HEAD route)',
    (path, handler) => {
      expect(targetFunction(`HEAD ${path}`)).toBe(functionLogicalId(handler));
    },
  );

  test('anything else goes to the fallback on $default', () => {
    expect(targetFunction('$default')).toBe(functionLogicalId('fallback'));
    const heads = routes.filter((route) => route.method === 'GET').length;
    template.resourceCountIs('AWS::ApiGatewayV2::Route', routes.length + heads + 1);
  });

  test('one function per handler module, routes sharing a module share it', () => {
    const handlers = new Set([
      ...routes.map((route) => route.handler),
      ...objectEventFunctions.map((fn) => fn.handler),
      ...scheduledFunctions.map((fn) => fn.handler),
      ...invokedFunctions.map((fn) => fn.handler),
      ...streamFunctions.map((fn) => fn.handler),
      'fallback',
    ]);
    expect(specs.map((spec) => spec.handler).sort()).toEqual([...handlers].sort());
    // Besides them only CDK's own custom-resource functions (bucket deployment and auto-delete).
    const ours = ofType('AWS::Lambda::Function').filter(
      ([, fn]) => fn.Properties.Environment?.Variables?.POWERTOOLS_LOG_LEVEL,
    );
    expect(ours).toHaveLength(handlers.size);
    expect(targetFunction('GET /api/auth/logout')).toBe(targetFunction('POST /api/auth/logout'));
  });

  test.each(specs.map((spec) => [spec.handler, spec]))(
    '%s: Node.js 22 on arm64, memory by class',
    (_, spec) => {
      const fn = resources[functionLogicalId(spec.handler)]?.Properties;
      expect(fn).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: memoryOf(spec),
      });
      // No --enable-source-maps: it costs every cold start; logged errors are mapped by the logger.
      expect(fn.Environment.Variables.NODE_OPTIONS).toBeUndefined();
    },
  );
});

describe('function specs', () => {
  test('routes sharing a module share one function with the union of their needs', () => {
    const base = {
      hashesPasswords: false,
      usesKeys: false,
      caller: 'public',
      body: 'none',
      area: 'account',
    } as const;
    const table: Route[] = [
      {
        ...base,
        method: 'GET',
        path: '/things',
        handler: 'things/list-all',
        table: { items: { GetItem: ['USER'] }, indexes: ['gsi1'] },
      },
      {
        ...base,
        method: 'POST',
        path: '/things',
        handler: 'things/list-all',
        table: { items: { GetItem: ['SETUP'], PutItem: ['USER'] } },
        bucket: { PutObject: ['uploads/'] },
        usesKeys: true,
      },
      { ...base, method: 'PUT', path: '/things', handler: 'things/list-all', hashesPasswords: true },
      { ...base, method: 'GET', path: '/other', handler: 'other' },
    ];
    const merged = functionSpecs(table, [], [], [], []);
    expect(merged.map((spec) => [spec.id, spec.handler, spec.routes.length])).toEqual([
      ['ThingsListAll', 'things/list-all', 3],
      ['Other', 'other', 1],
      ['Fallback', 'fallback', 0],
    ]);
    expect(merged[0]).toMatchObject({
      table: { items: { GetItem: ['SETUP', 'USER'], PutItem: ['USER'] }, indexes: ['gsi1'] },
      bucket: { PutObject: ['uploads/'] },
      hashesPasswords: true,
      usesKeys: true,
    });
    expect(merged[1]).toMatchObject({ table: {}, bucket: {}, hashesPasswords: false, usesKeys: false });
  });
});

describe('least privilege', () => {
  const tableId = ofType('AWS::DynamoDB::Table')[0]?.[0] as string;
  const bucketId = filesBucketId;
  const secretId = ofType('AWS::SecretsManager::Secret')[0]?.[0] as string;
  const setupCodeId = ofType('AWS::SecretsManager::Secret').find(([id]) => id.startsWith('SetupCode'))?.[0];
  const failedEventQueues = ofType('AWS::SQS::Queue').map(([id]) => id);
  const delivererArn = { 'Fn::GetAtt': [functionLogicalId('webhooks/deliver'), 'Arn'] };
  const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };

  /** A statement's grants as `action on resource [if condition]` strings, one per combination. */
  function grantLines(handler: string): string[] {
    return statementsOf(handler)
      .flatMap((statement) => {
        const condition = statement.Condition ? ` if ${JSON.stringify(statement.Condition)}` : '';
        return [statement.Action]
          .flat()
          .flatMap((action: string) =>
            [statement.Resource].flat().map((resource) => `${action} on ${describe(resource)}${condition}`),
          );
      })
      .sort();
  }

  /** CloudFormation ARNs in words: `table`, `table/index/gsi1`, `bucket`, `bucket/files/*`, `secret`. */
  function describe(resource: unknown): string {
    const text = JSON.stringify(resource);
    if (text === JSON.stringify(tableArn)) return 'table';
    if (text === JSON.stringify({ 'Fn::GetAtt': [tableId, 'StreamArn'] })) return 'table stream';
    if (text === JSON.stringify({ Ref: secretId })) return 'secret';
    if (text === JSON.stringify({ Ref: setupCodeId })) return 'setup code';
    const [named, attribute] = (resource as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt'] ?? [];
    if (named && failedEventQueues.includes(named) && attribute === 'Arn') return 'failed events queue';
    if (text === JSON.stringify(delivererArn)) return 'webhook deliverer';
    if (text === JSON.stringify({ 'Fn::GetAtt': [bucketId, 'Arn'] })) return 'bucket';
    const joined = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join']?.[1];
    if (joined && JSON.stringify(joined[0]) === JSON.stringify(tableArn)) return `table${joined[1]}`;
    if (joined && JSON.stringify(joined[0]) === JSON.stringify({ 'Fn::GetAtt': [bucketId, 'Arn'] }))
      return `bucket${joined[1]}`;
    return text;
  }

  /** What the route table declares, in the same words. */
  function declaredLines(spec: (typeof specs)[number]): string[] {
    const leadingKeys = (partitions: readonly string[]) =>
      ` if ${JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': partitions.map((p) => PARTITION_PATTERNS[p as Partition]) } })}`;
    return [
      ...Object.entries(spec.table.items ?? {}).map(
        ([action, partitions]) => `dynamodb:${action} on table${leadingKeys(partitions ?? [])}`,
      ),
      ...(spec.table.indexes ?? []).map((index) => `dynamodb:Query on table/index/${index}`),
      ...(spec.usesKeys
        ? ['secretsmanager:DescribeSecret on secret', 'secretsmanager:GetSecretValue on secret']
        : []),
      ...(spec.setupCode === 'checks'
        ? ['secretsmanager:DescribeSecret on setup code', 'secretsmanager:GetSecretValue on setup code']
        : []),
      ...(spec.objectEvents || spec.invoked || spec.tableStream
        ? ['sqs:SendMessage on failed events queue']
        : []),
      ...(spec.tableStream
        ? ['DescribeStream', 'GetRecords', 'GetShardIterator'].map(
            (action) => `dynamodb:${action} on table stream`,
          )
        : []),
      ...(spec.tableStream ? ['dynamodb:ListStreams on "*"'] : []),
      ...(spec.emitsWebhooks ? ['lambda:InvokeFunction on webhook deliverer'] : []),
      ...Object.entries(spec.bucket).flatMap(([action, prefixes]) =>
        action === 'ListBucket'
          ? [
              `s3:ListBucket on bucket if ${JSON.stringify({ StringLike: { 's3:prefix': (prefixes ?? []).map((p) => `${p}*`) } })}`,
            ]
          : (prefixes ?? []).map((prefix) => `s3:${action} on bucket/${prefix}*`),
      ),
    ].sort();
  }

  test.each(specs.map((spec) => [spec.handler, spec]))(
    '%s gets exactly what its routes declare, item actions limited to their partitions',
    (_, spec) => {
      expect(grantLines(spec.handler)).toEqual(declaredLines(spec));
      const variables = resources[functionLogicalId(spec.handler)]?.Properties.Environment.Variables;
      expect(variables.TABLE_NAME !== undefined).toBe(usesTable(spec));
      expect(variables.BUCKET_NAME !== undefined).toBe(usesBucket(spec));
    },
  );

  test('no table item action without a partition condition, no wildcard action, no whole-bucket object grant', () => {
    const statements = specs.flatMap((spec) => statementsOf(spec.handler)) as {
      Action: string | string[];
      Resource: unknown;
      Condition?: unknown;
    }[];
    for (const statement of statements) {
      const actions = [statement.Action].flat();
      expect(actions.filter((action) => action.includes('*'))).toEqual([]);
      const onTable = [statement.Resource].flat().some((r) => JSON.stringify(r) === JSON.stringify(tableArn));
      if (onTable) expect(JSON.stringify(statement.Condition)).toContain('dynamodb:LeadingKeys');
      for (const resource of [statement.Resource].flat()) expect(describe(resource)).not.toBe('bucket/*');
    }
  });

  test('the public download function: name lookup, file read (HEAD, ?pw=), view count (a popular file: its counters; the owner totals follow from the stream), guess count; bytes and embed previews', () => {
    expect(grantLines('files/raw')).toEqual([
      `dynamodb:BatchGetItem on table if ${JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['FILEVIEWS#*'] } })}`,
      `dynamodb:GetItem on table if ${JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['FILENAME#*', 'USER#*'] } })}`,
      // A view moves the file's views keys on its folder's member item too (FOLDER#, issue 35).
      `dynamodb:UpdateItem on table if ${JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['FILEVIEWS#*', 'FOLDER#*', 'THROTTLE#*', 'USER#*'] } })}`,
      's3:GetObject on bucket/files/*',
      's3:GetObject on bucket/thumbnails/*',
    ]);
  });

  test("instance metrics: the route reads the METRICS partition only; the daily job reads users, files, the links' and popular files' counters and writes its day, no Scan, no bucket", () => {
    const keys = (patterns: string[]) =>
      ` if ${JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns } })}`;
    expect(grantLines('metrics/get')).toEqual([
      `dynamodb:GetItem on table${keys(['USER#*'])}`,
      `dynamodb:Query on table${keys(['METRICS'])}`,
      'secretsmanager:DescribeSecret on secret',
      'secretsmanager:GetSecretValue on secret',
    ]);
    expect(grantLines('metrics/daily')).toEqual([
      `dynamodb:BatchGetItem on table${keys(['FILEVIEWS#*', 'LINKVIEWS#*'])}`,
      `dynamodb:Query on table${keys(['USER#*'])}`,
      'dynamodb:Query on table/index/gsi12',
      `dynamodb:UpdateItem on table${keys(['METRICS'])}`,
    ]);
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 day)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [functionLogicalId('metrics/daily'), 'Arn'] } })],
    });
  });

  test('presigned uploads: the URL may tag, completion may retag and tell a missing object from a refused HEAD', () => {
    expect(grantLines('files/upload-start')).toEqual(
      expect.arrayContaining(['s3:PutObject on bucket/files/*', 's3:PutObjectTagging on bucket/files/*']),
    );
    // Completion writes no bytes (the URL PUT them to their final key): it only retags.
    const completion = grantLines('files/upload-complete');
    expect(completion).toContain('s3:PutObjectTagging on bucket/files/*');
    expect(completion.filter((line) => line.startsWith('s3:PutObject '))).toEqual([]);
    // The listing that stands in for a HEAD answered 403 names the object's key as its prefix.
    expect(grantLines('files/upload-complete')).toContain(
      `s3:ListBucket on bucket if ${JSON.stringify({ StringLike: { 's3:prefix': ['files/*'] } })}`,
    );
  });

  test('deleting a file may delete stored bytes (or mark a pending one) and its thumbnail, nothing else in the bucket', () => {
    expect(grantLines('files/delete').filter((line) => line.startsWith('s3:'))).toEqual([
      's3:DeleteObject on bucket/files/*',
      's3:DeleteObject on bucket/thumbnails/*',
      's3:PutObjectTagging on bucket/files/*',
    ]);
  });

  test("the expiry sweep: the expiry index, file items, name claims, folder members and a popular file's view counters, and what deleting a file may do in the bucket", () => {
    const leading = (patterns: string[]) =>
      JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns } });
    expect(grantLines('files/expire')).toEqual([
      `dynamodb:BatchWriteItem on table if ${leading(['FILEVIEWS#*'])}`,
      `dynamodb:ConditionCheckItem on table if ${leading(['USER#*'])}`,
      `dynamodb:DeleteItem on table if ${leading(['FILENAME#*', 'FOLDER#*', 'USER#*'])}`,
      `dynamodb:GetItem on table if ${leading(['USER#*'])}`,
      'dynamodb:Query on table/index/gsi11',
      `dynamodb:UpdateItem on table if ${leading(['USER#*'])}`,
      ...grantLines('files/delete').filter((line) => line.startsWith('s3:')),
    ]);
  });

  test('the thumbnail function: reads images and file items, writes thumbnails and the file item only', () => {
    expect(grantLines('thumbnails/make')).toEqual([
      `dynamodb:GetItem on table if ${JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['USER#*'] } })}`,
      `dynamodb:UpdateItem on table if ${JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['USER#*'] } })}`,
      's3:DeleteObject on bucket/thumbnails/*',
      's3:GetObject on bucket/files/*',
      's3:PutObject on bucket/thumbnails/*',
      'sqs:SendMessage on failed events queue',
    ]);
  });

  test('functions of read-only routes write nothing', () => {
    const writes = /dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)|s3:(PutObject|DeleteObject)/;
    const readOnly = ['setup/get', 'user/get', 'user/avatar', 'user/token-get', 'users/list', 'users/get'];
    for (const handler of [...readOnly, 'files/list', 'files/get'])
      expect(grantLines(handler).filter((line) => writes.test(line))).toEqual([]);
  });

  test('only the listings, the expiry sweep and the daily metrics query indexes: users by gsi12, files by the file indexes, the sweep by gsi11', () => {
    const querying = specs.filter((spec) => spec.table.indexes?.length).map((spec) => spec.handler);
    // The public folder page reads the owner's unswept expired files from the deletesAt index (gsi4).
    expect(querying.sort()).toEqual([
      'files/expire',
      'files/list',
      'metrics/daily',
      'users/list',
      'view/folder',
    ]);
    expect(specs.find((spec) => spec.handler === 'view/folder')?.table.indexes).toEqual(['gsi4']);
    expect(specs.find((spec) => spec.handler === 'files/expire')?.table.indexes).toEqual(['gsi11']);
    expect(specs.find((spec) => spec.handler === 'users/list')?.table.indexes).toEqual(['gsi12']);
    expect(specs.find((spec) => spec.handler === 'metrics/daily')?.table.indexes).toEqual(['gsi12']);
  });
});

describe('table', () => {
  test('keys and indexes equal the shared definition', () => {
    const shared = createTableInput('unused');
    const [, table] = ofType('AWS::DynamoDB::Table')[0] as [string, Resource];
    expect(table.Properties.KeySchema).toEqual(shared.KeySchema);
    expect(table.Properties.GlobalSecondaryIndexes).toEqual(shared.GlobalSecondaryIndexes);
    const byName = (a: { AttributeName: string }, b: { AttributeName: string }) =>
      a.AttributeName.localeCompare(b.AttributeName);
    expect([...table.Properties.AttributeDefinitions].sort(byName)).toEqual(
      [...shared.AttributeDefinitions].sort(byName),
    );
  });

  test('the legacy user listing (gsi1, every attribute projected) is gone; the sharded users index is there', () => {
    const [, table] = ofType('AWS::DynamoDB::Table')[0] as [string, Resource];
    const names = table.Properties.GlobalSecondaryIndexes.map(
      (index: { IndexName: string }) => index.IndexName,
    );
    expect(names).not.toContain('gsi1');
    expect(names).toContain(USERS_INDEX);
    const attributes = table.Properties.AttributeDefinitions.map(
      (a: { AttributeName: string }) => a.AttributeName,
    );
    expect(attributes).not.toEqual(expect.arrayContaining(['gsi1pk']));
    expect(attributes).not.toEqual(expect.arrayContaining(['gsi1sk']));
  });

  test('the user listing index is sharded by its keys and projects nothing secret or changed by a login', () => {
    const [, table] = ofType('AWS::DynamoDB::Table')[0] as [string, Resource];
    const listing = table.Properties.GlobalSecondaryIndexes.find(
      (index: { IndexName: string }) => index.IndexName === 'gsi12',
    );
    expect(listing.Projection.ProjectionType).toBe('INCLUDE');
    expect([...listing.Projection.NonKeyAttributes].sort()).toEqual(
      [
        'createdAt',
        'id',
        'oauthProviders',
        'passkeys',
        'quota',
        'role',
        'updatedAt',
        'username',
        'view',
      ].sort(),
    );
  });

  test('on demand, point-in-time recovery, TTL, retained and protected by default', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true },
        DeletionProtectionEnabled: true,
      }),
    });
  });

  test('retainData: false lets destroy delete it, and the bucket with its objects', () => {
    const disposable = synthesize({ retainData: false }).template;
    disposable.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
    });
    const disposableResources = disposable.toJSON().Resources as Record<string, Resource>;
    expect(disposableResources[filesBucketId]?.DeletionPolicy).toBe('Delete');
    disposable.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Delete' });
    // CDK's auto-delete custom resource empties the files bucket before CloudFormation deletes it
    // (the dashboard's bucket, rebuilt on every deploy, always has one).
    const emptied = (resourcesOf: Record<string, Resource>) =>
      Object.values(resourcesOf)
        .filter((resource) => resource.Type === 'Custom::S3AutoDeleteObjects')
        .map((resource) => resource.Properties.BucketName.Ref);
    expect(emptied(disposableResources)).toContain(filesBucketId);
    expect(emptied(resources)).not.toContain(filesBucketId);
    expect(resources[filesBucketId]?.DeletionPolicy).toBe('Retain');
  });
});

describe('files bucket', () => {
  test('private, encrypted, TLS only, retained by default, abandoned uploads expire', () => {
    template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        LifecycleConfiguration: {
          Rules: Match.arrayWith([
            // A chunked upload's parts and staged chunks outlive its 7-day session by a day.
            Match.objectLike({
              AbortIncompleteMultipartUpload: { DaysAfterInitiation: UPLOAD_SESSION_DAYS + 1 },
              Status: 'Enabled',
            }),
            Match.objectLike({
              Prefix: 'uploads/',
              ExpirationInDays: UPLOAD_SESSION_DAYS + 1,
              Status: 'Enabled',
            }),
            Match.objectLike({
              TagFilters: [{ Key: 'upload', Value: 'pending' }],
              ExpirationInDays: 1,
              Status: 'Enabled',
            }),
          ]),
        },
      }),
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('thumbnails', () => {
  test('the files bucket notifies the thumbnail function of every object created or retagged under files/, and only it (and the export function of export requests)', () => {
    const notifications = ofType('Custom::S3BucketNotifications');
    expect(notifications).toHaveLength(1);
    const properties = notifications[0]?.[1].Properties;
    expect(properties.BucketName).toEqual({ Ref: filesBucketId });
    expect(properties.NotificationConfiguration).toEqual({
      // Created: direct uploads' PutObject, chunked uploads' CompleteMultipartUpload. Retagged: a
      // presigned upload's completion (its PUT came long before, when no file existed).
      LambdaFunctionConfigurations: [
        ...['s3:ObjectCreated:*', 's3:ObjectTagging:Put'].map((event) => ({
          Events: [event],
          Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'files/' }] } },
          LambdaFunctionArn: { 'Fn::GetAtt': [functionLogicalId('thumbnails/make'), 'Arn'] },
        })),
        // An export's request object (tests/infra/exports.test.ts): a prefix of its own, so the
        // zips it writes under exports/ start nothing.
        {
          Events: ['s3:ObjectCreated:*'],
          Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'export-requests/' }] } },
          LambdaFunctionArn: { 'Fn::GetAtt': [functionLogicalId('exports/make'), 'Arn'] },
        },
      ],
    });
    // S3 may invoke it, from this bucket only.
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [functionLogicalId('thumbnails/make'), 'Arn'] },
      Principal: 's3.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [filesBucketId, 'Arn'] },
    });
  });

  test('the thumbnail function has no API route, more memory and time than a route', () => {
    const routed = ofType('AWS::ApiGatewayV2::Integration').map(
      ([, integration]) => integration.Properties.IntegrationUri['Fn::GetAtt'][0],
    );
    expect(routed).not.toContain(functionLogicalId('thumbnails/make'));
    expect(resources[functionLogicalId('thumbnails/make')]?.Properties).toMatchObject({
      MemorySize: MEMORY_MB.imageProcessing,
      Timeout: 30,
    });
  });

  test('the direct upload, which re-encodes images, has the image class: its memory, and 30 s (all API Gateway waits)', () => {
    expect(resources[functionLogicalId('files/upload')]?.Properties).toMatchObject({
      MemorySize: MEMORY_MB.imageProcessing,
      Timeout: 30,
    });
    // The other upload routes never hold a whole file: they keep the API's class.
    expect(resources[functionLogicalId('files/upload-start')]?.Properties).toMatchObject({
      MemorySize: MEMORY_MB.passwordHashing,
      Timeout: 10,
    });
  });
});

describe('service keys', () => {
  test('the stack generates the secret in the shape the handlers parse', () => {
    const [, secret] = ofType('AWS::SecretsManager::Secret')[0] as [string, Resource];
    expect(secret.Properties.SecretString).toBeUndefined();
    const generate = secret.Properties.GenerateSecretString;
    expect(generate).toMatchObject({
      GenerateStringKey: 'secret',
      PasswordLength: 64,
      ExcludePunctuation: true,
    });
    const value = { ...JSON.parse(generate.SecretStringTemplate), secret: 'a1B2'.repeat(16) };
    expect(() => parseServiceKeys(JSON.stringify(value))).not.toThrow();
  });

  test('functions get the secret ARN, never its value', () => {
    const secretId = ofType('AWS::SecretsManager::Secret')[0]?.[0] as string;
    for (const spec of specs) {
      const variables = resources[functionLogicalId(spec.handler)]?.Properties.Environment.Variables;
      // Declared empty only so `sam local --env-vars` can fill it in.
      expect(variables.SERVICE_KEYS ?? '').toBe('');
      expect(variables.SERVICE_KEYS_SECRET_ARN).toEqual(spec.usesKeys ? { Ref: secretId } : undefined);
    }
    // No literal SecretString anywhere in the template, and no dynamic reference to any value but
    // the origin secret's (CloudFront's origin header and the API functions' check: docs/security.md).
    const text = JSON.stringify(template.toJSON());
    expect(/"SecretString"\s*:/.exec(text)).toBeNull();
    const originSecretId = ofType('AWS::SecretsManager::Secret').find(([id]) =>
      id.startsWith('OriginSecret'),
    )?.[0];
    const count = (part: string) => text.split(part).length - 1;
    const references = count('{{resolve:secretsmanager:');
    expect(references).toBeGreaterThan(0);
    expect(count(`{{resolve:secretsmanager:",{"Ref":"${originSecretId}"}`)).toBe(references);
  });
});

describe('sign-in providers', () => {
  const oauthRoutes = [
    ['GET /api/auth/oauth', 'auth/oauth-linked'],
    ['DELETE /api/auth/oauth', 'auth/oauth-unlink'],
    ['GET /api/server/public', 'server/public'],
    ['GET /api/auth/oauth/{provider}', 'auth/oauth-start'],
    ['POST /api/auth/oauth/{provider}', 'auth/oauth-link'],
    ['GET /api/auth/oauth/{provider}/callback', 'auth/oauth-callback'],
    ['DELETE /api/user/oauth', 'user/oauth-unlink'],
  ];

  test.each(oauthRoutes)('%s is routed to %s', (routeKey, handler) => {
    expect(targetFunction(routeKey)).toBe(functionLogicalId(handler));
  });

  test('none by default: no client secret, no provider configuration in any function', () => {
    expect(
      ofType('AWS::SecretsManager::Secret').filter(([id]) => id.startsWith('OAuthClientSecrets')),
    ).toEqual([]);
    for (const spec of specs) {
      const variables = resources[functionLogicalId(spec.handler)]?.Properties.Environment.Variables;
      expect(Object.keys(variables).filter((name) => name.startsWith('OAUTH_'))).toEqual([]);
    }
  });

  describe('configured', () => {
    const configured = synthesize({
      oauth: {
        providers: [
          { id: 'oidc', clientId: 'oidc-client', issuer: 'https://id.example.com', name: 'Example ID' },
          { id: 'github', clientId: 'github-client' },
        ],
        signup: true,
      },
    });
    const json = configured.template.toJSON().Resources as Record<string, Resource>;
    const [secretId, secret] = Object.entries(json).find(
      ([id, resource]) =>
        resource.Type === 'AWS::SecretsManager::Secret' && id.startsWith('OAuthClientSecrets'),
    ) as [string, Resource];
    const functionOf = (handler: string) => {
      const fn = configured.stack.functions.get(handler);
      return json[logicalIdOf(fn?.function as NodejsFunction)] as Resource;
    };
    const mentionsSecret = (document: unknown) =>
      (JSON.stringify(document) ?? '').includes(`"Ref":"${secretId}"`);
    /** Roles that may read the client secrets: by an inline policy, or by an attached one. */
    const readers = [
      ...Object.entries(json)
        .filter(
          ([, resource]) =>
            resource.Type === 'AWS::IAM::Role' && mentionsSecret(resource.Properties.Policies),
        )
        .map(([id]) => id),
      ...Object.values(json)
        .filter((resource) => resource.Type === 'AWS::IAM::Policy' && mentionsSecret(resource.Properties))
        .flatMap((policy) => policy.Properties.Roles.map((role: { Ref: string }) => role.Ref)),
    ];
    /** Every statement of the template's roles and policies. */
    // biome-ignore lint/suspicious/noExplicitAny: IAM statements are free-form JSON.
    const allStatements = Object.values(json).flatMap((resource): any[] => {
      if (resource.Type === 'AWS::IAM::Policy') return resource.Properties.PolicyDocument.Statement;
      if (resource.Type !== 'AWS::IAM::Role') return [];
      // biome-ignore lint/suspicious/noExplicitAny: IAM policies are free-form JSON.
      return (resource.Properties.Policies ?? []).flatMap((policy: any) => policy.PolicyDocument.Statement);
    });

    test('the client secrets are a generated secret (no value in the template), retained with the data', () => {
      expect(secret.Properties.SecretString).toBeUndefined();
      expect(secret.Properties.GenerateSecretString).toEqual({
        SecretStringTemplate: '{}',
        GenerateStringKey: 'placeholder',
      });
      expect(secret.DeletionPolicy).toBe('Retain');
      expect(configured.template.toJSON().Outputs.OAuthClientSecretsArn.Value).toEqual({ Ref: secretId });
    });

    test('only the two routes that take the callback may read them, and get their ARN', () => {
      // `/callback`, and the start's own path, which takes the provider's answer as Zipline's does.
      const callback = functionOf('auth/oauth-callback');
      const start = functionOf('auth/oauth-start');
      const callbackRole = callback.Properties.Role['Fn::GetAtt'][0];
      expect(readers).toEqual([callbackRole]);
      // Their role is theirs alone (no other function has their access).
      const sharing = Object.values(json).filter(
        (resource) =>
          resource.Type === 'AWS::Lambda::Function' &&
          resource.Properties.Role['Fn::GetAtt']?.[0] === callbackRole,
      );
      expect(sharing).toEqual([start, callback]);
      expect(start.Properties.Environment.Variables.OAUTH_CLIENT_SECRETS_ARN).toEqual({ Ref: secretId });
      const statement = allStatements.find(
        (candidate) => JSON.stringify(candidate.Resource) === JSON.stringify({ Ref: secretId }),
      );
      expect([...statement.Action].sort()).toEqual([
        'secretsmanager:DescribeSecret',
        'secretsmanager:GetSecretValue',
      ]);
      expect(callback.Properties.Environment.Variables.OAUTH_CLIENT_SECRETS_ARN).toEqual({ Ref: secretId });
    });

    test('the sign-in functions get the client ids, issuer, name and sign-up setting; no other function does', () => {
      const providerVariables = {
        OAUTH_OIDC_CLIENT_ID: 'oidc-client',
        OAUTH_OIDC_ISSUER: 'https://id.example.com',
        OAUTH_OIDC_NAME: 'Example ID',
        OAUTH_GITHUB_CLIENT_ID: 'github-client',
        OAUTH_SIGNUP: 'true',
      };
      for (const spec of specs) {
        const variables = functionOf(spec.handler).Properties.Environment.Variables;
        const oauth = Object.fromEntries(
          Object.entries(variables).filter(([name]) => name.startsWith('OAUTH_')),
        );
        const expected =
          spec.oauth === undefined
            ? {}
            : spec.oauth === 'secrets'
              ? { ...providerVariables, OAUTH_CLIENT_SECRETS_ARN: { Ref: secretId } }
              : providerVariables;
        expect([spec.handler, oauth]).toEqual([spec.handler, expected]);
      }
      expect(specs.filter((spec) => spec.oauth).map((spec) => `${spec.handler} ${spec.oauth}`)).toEqual([
        'auth/oauth-start secrets',
        'auth/oauth-link providers',
        'auth/oauth-callback secrets',
        'server/public providers',
      ]);
    });
  });
});

describe('logs', () => {
  test('every function logs to its own group with retention', () => {
    const groups = ofType('AWS::Logs::LogGroup');
    for (const [, group] of groups) expect(group.Properties.RetentionInDays).toBe(30);
    const groupIds = new Set(groups.map(([id]) => id));
    const used = specs.map(
      (spec) => resources[functionLogicalId(spec.handler)]?.Properties.LoggingConfig.LogGroup.Ref,
    );
    expect(used.every((id) => groupIds.has(id))).toBe(true);
    expect(new Set(used).size).toBe(specs.length);
  });
});

describe('HTTP API', () => {
  test('CORS as the route table declares it: any origin, no credentials', () => {
    const cors = corsPolicy();
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: {
        AllowOrigins: ['*'],
        AllowCredentials: false,
        AllowMethods: cors.allowMethods,
        AllowHeaders: cors.allowHeaders,
        ExposeHeaders: cors.exposeHeaders,
        MaxAge: cors.maxAgeSeconds,
      },
    });
    // Browser uploaders send these; a preflight refusing one never reaches the handler.
    expect(corsPolicy().allowHeaders).toEqual(expect.arrayContaining([...ZIPLINE_HEADER_NAMES]));
  });

  test('allowed origins get CORS with credentials, exactly those, and reach the functions', () => {
    const origins = ['https://dash.example.com', 'https://files.example.com'];
    const allowed = synthesize({ allowedOrigins: origins }).template;
    allowed.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({ AllowOrigins: origins, AllowCredentials: true }),
    });
    allowed.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ ALLOWED_ORIGINS: origins.join(',') }) },
    });
  });

  test('the default stage throttles and writes access logs', () => {
    const logGroupId = ofType('AWS::Logs::LogGroup').find(([id]) => id.startsWith('ApiAccessLogs'))?.[0];
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
      AccessLogSettings: {
        DestinationArn: { 'Fn::GetAtt': [logGroupId, 'Arn'] },
        Format: Match.stringLikeRegexp('\\$context\\.requestId'),
      },
    });
  });

  test('the API URL is a stack output', () => {
    template.hasOutput('ApiUrl', { Value: Match.anyValue() });
  });
});

describe('expiry', () => {
  test('a schedule starts the sweep every minute, not retried (the next run does the same), and nothing else', () => {
    const rules = ofType('AWS::Events::Rule');
    // One per scheduled function: the sweep's, the user deletions worker's (users section) and the
    // daily metrics' (metrics section).
    expect(rules).toHaveLength(3);
    const sweepRule = rules.find(
      ([, rule]) => rule.Properties.Targets[0].Arn['Fn::GetAtt'][0] === functionLogicalId('files/expire'),
    );
    expect(sweepRule?.[1].Properties).toMatchObject({
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: [
        {
          Arn: { 'Fn::GetAtt': [functionLogicalId('files/expire'), 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 0 },
        },
      ],
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [functionLogicalId('files/expire'), 'Arn'] },
      Principal: 'events.amazonaws.com',
    });
  });

  test('the sweep has no API route and a run may take the minute until the next', () => {
    const routed = ofType('AWS::ApiGatewayV2::Integration').map(
      ([, integration]) => integration.Properties.IntegrationUri['Fn::GetAtt'][0],
    );
    expect(routed).not.toContain(functionLogicalId('files/expire'));
    expect(resources[functionLogicalId('files/expire')]?.Properties).toMatchObject({ Timeout: 60 });
  });

  test('the table has the sparse expiry index, keys only', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      GlobalSecondaryIndexes: Match.arrayWith([
        {
          IndexName: 'gsi11',
          KeySchema: [
            { AttributeName: 'gsi11pk', KeyType: 'HASH' },
            { AttributeName: 'gsi11sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ]),
    });
  });
});

describe('user deletions', () => {
  test('a schedule starts the worker every minute; both functions have the time their budgets assume', () => {
    const worker = functionLogicalId('users/continue-deletions');
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [worker, 'Arn'] } })],
    });
    // The DELETE and the worker stop their loops by getRemainingTimeInMillis; without a Lambda
    // context (the local runner) they count from these timeouts.
    expect(resources[functionLogicalId('users/delete')]?.Properties.Timeout).toBe(API_FUNCTION_SECONDS);
    expect(resources[worker]?.Properties.Timeout).toBe(SCHEDULED_FUNCTION_SECONDS);
  });
});
