import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { parseServiceKeys } from '#shared/auth/keys';
import { createTableInput, tableDefinition } from '#shared/db/table';
import { corsPolicy, type Route, routes, ZIPLINE_UPLOAD_HEADERS } from '#shared/routes';
import { BUCKET_ACTIONS, MEMORY_MB, TABLE_ACTIONS } from '../../infra/constructs/service-function.ts';
import { functionSpecs } from '../../infra/functions.ts';
import { FileServiceStack, type FileServiceStackProps } from '../../infra/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties are free-form JSON.
type Resource = { Type: string; Properties: any; DeletionPolicy?: string };

/** Synthesizes the stack without bundling (the bundles have their own test file). */
function synthesize(props: FileServiceStackProps = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new FileServiceStack(app, 'FileService', props);
  return { stack, template: Template.fromStack(stack) };
}

const { stack, template } = synthesize();
const resources = template.toJSON().Resources as Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const specs = functionSpecs();

function functionLogicalId(handler: string): string {
  const fn = stack.functions.get(handler);
  if (!fn) throw new Error(`no function for ${handler}`);
  return stack.getLogicalId(fn.function.node.defaultChild as never);
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

/** Every IAM action granted to a function's role, with the resources of each statement. */
function grantsOf(handler: string): { actions: string[]; resources: string[] } {
  const roleRef = resources[functionLogicalId(handler)]?.Properties.Role['Fn::GetAtt'][0];
  const statements = ofType('AWS::IAM::Policy')
    .filter(([, policy]) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleRef))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
  return {
    actions: statements.flatMap((statement) => [statement.Action].flat()).sort(),
    resources: statements.flatMap((statement) => [statement.Resource].flat()).map((r) => JSON.stringify(r)),
  };
}

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
    const handlers = new Set([...routes.map((route) => route.handler), 'fallback']);
    expect(specs.map((spec) => spec.handler).sort()).toEqual([...handlers].sort());
    template.resourceCountIs('AWS::Lambda::Function', handlers.size);
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
        MemorySize: spec.hashesPasswords ? MEMORY_MB.passwordHashing : MEMORY_MB.standard,
      });
      expect(fn.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
    },
  );
});

describe('function specs', () => {
  test('routes sharing a module share one function with the union of their needs', () => {
    const base = { table: 'none', hashesPasswords: false, usesKeys: false } as const;
    const table: Route[] = [
      { ...base, method: 'GET', path: '/things', handler: 'things/list-all', table: 'read' },
      {
        ...base,
        method: 'POST',
        path: '/things',
        handler: 'things/list-all',
        table: 'write',
        usesKeys: true,
      },
      { ...base, method: 'PUT', path: '/things', handler: 'things/list-all', hashesPasswords: true },
      { ...base, method: 'GET', path: '/other', handler: 'other' },
    ];
    const merged = functionSpecs(table);
    expect(merged.map((spec) => [spec.id, spec.handler, spec.routes.length])).toEqual([
      ['ThingsListAll', 'things/list-all', 3],
      ['Other', 'other', 1],
      ['Fallback', 'fallback', 0],
    ]);
    expect(merged[0]).toMatchObject({ table: 'write', hashesPasswords: true, usesKeys: true });
    expect(merged[1]).toMatchObject({ table: 'none', hashesPasswords: false, usesKeys: false });
  });
});

describe('least privilege', () => {
  const writeActions = TABLE_ACTIONS.write.map((action) => action);

  test.each(specs.map((spec) => [spec.handler, spec]))(
    '%s gets exactly what its routes declare',
    (_, spec) => {
      const { actions, resources: granted } = grantsOf(spec.handler);
      const table =
        spec.table === 'none'
          ? []
          : spec.table === 'read'
            ? TABLE_ACTIONS.read
            : [...TABLE_ACTIONS.read, ...TABLE_ACTIONS.write];
      const secret = spec.usesKeys ? ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'] : [];
      const bucket =
        spec.bucket === 'none'
          ? []
          : spec.bucket === 'read'
            ? BUCKET_ACTIONS.read
            : [...BUCKET_ACTIONS.write, 's3:ListBucket'];
      expect(actions).toEqual([...table, ...secret, ...bucket].sort());
      const variables = resources[functionLogicalId(spec.handler)]?.Properties.Environment.Variables;
      expect(variables.BUCKET_NAME !== undefined).toBe(spec.bucket !== 'none');
      if (spec.table === 'read') {
        for (const action of writeActions) expect(actions).not.toContain(action);
      }
      if (spec.table !== 'none') {
        const tableId = ofType('AWS::DynamoDB::Table')[0]?.[0] as string;
        expect(granted).toContain(JSON.stringify({ 'Fn::GetAtt': [tableId, 'Arn'] }));
        expect(granted.some((r) => r.includes(tableId) && r.includes('/index/*'))).toBe(true);
      }
      if (spec.usesKeys) {
        const secretId = ofType('AWS::SecretsManager::Secret')[0]?.[0] as string;
        expect(granted).toContain(JSON.stringify({ Ref: secretId }));
      }
    },
  );

  test('no wildcard actions anywhere', () => {
    const all = ofType('AWS::IAM::Policy').flatMap(([, policy]) =>
      policy.Properties.PolicyDocument.Statement.flatMap((statement: { Action: string | string[] }) =>
        [statement.Action].flat(),
      ),
    );
    expect(all.filter((action) => action.includes('*'))).toEqual([]);
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
    disposable.hasResource('AWS::S3::Bucket', { DeletionPolicy: 'Delete' });
    disposable.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Delete' });
    // CDK's auto-delete custom resource empties the bucket before CloudFormation deletes it.
    disposable.resourceCountIs('Custom::S3AutoDeleteObjects', 1);
    template.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
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
            Match.objectLike({
              AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
              Status: 'Enabled',
            }),
            Match.objectLike({ Prefix: 'uploads/', ExpirationInDays: 1, Status: 'Enabled' }),
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

  test('a read-only download function can neither write nor delete objects', () => {
    const { actions } = grantsOf('files/raw');
    expect(actions).toContain('s3:GetObject');
    for (const action of ['s3:PutObject', 's3:DeleteObject', 's3:ListBucket'])
      expect(actions).not.toContain(action);
  });

  test('presigned uploads: the URL may tag, completion may retag and tell a missing object from a refused HEAD', () => {
    for (const handler of ['files/upload-start', 'files/upload-complete']) {
      expect(grantsOf(handler).actions).toEqual(
        expect.arrayContaining(['s3:PutObject', 's3:PutObjectTagging']),
      );
    }
    // The listing that stands in for a HEAD answered 403 names the object's key as its prefix.
    const roleRef = resources[functionLogicalId('files/upload-complete')]?.Properties.Role['Fn::GetAtt'][0];
    const listing = ofType('AWS::IAM::Policy')
      .filter(([, policy]) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleRef))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement)
      .find((statement) => [statement.Action].flat().includes('s3:ListBucket'));
    expect(listing.Condition).toEqual({ StringLike: { 's3:prefix': expect.arrayContaining(['files/*']) } });
  });

  test('object grants are limited to the service prefixes', () => {
    const bucketId = ofType('AWS::S3::Bucket')[0]?.[0] as string;
    const bucketArn = JSON.stringify({ 'Fn::GetAtt': [bucketId, 'Arn'] });
    const prefixed = (prefix: string) =>
      JSON.stringify({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, `/${prefix}*`]] });
    for (const spec of specs.filter((candidate) => candidate.bucket !== 'none')) {
      const onBucket = grantsOf(spec.handler).resources.filter((resource) => resource.includes(bucketId));
      const allowed =
        spec.bucket === 'read' ? [prefixed('files/')] : [prefixed('files/'), prefixed('uploads/'), bucketArn];
      expect([...new Set(onBucket)].sort()).toEqual([...allowed].sort());
    }
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
    // Neither a dynamic reference to the value nor a literal SecretString anywhere in the template.
    const text = JSON.stringify(template.toJSON());
    expect(/resolve:secretsmanager|"SecretString"\s*:/.exec(text)).toBeNull();
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
    expect(corsPolicy().allowHeaders).toEqual(expect.arrayContaining([...ZIPLINE_UPLOAD_HEADERS]));
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
