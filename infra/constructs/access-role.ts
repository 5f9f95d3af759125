import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { PARTITION_PATTERNS, type Partition } from '#shared/db/keys/partitions';
import type { BucketAccess, TableAccess } from '#shared/routes/grants';

/** What a function may touch: the union of its routes' declarations (infra/functions.ts). */
export interface Access {
  table: TableAccess;
  bucket: BucketAccess;
  usesKeys: boolean;
  /** Reads the sign-in providers' client secrets (the OAuth callback, when a provider is set up). */
  readsClientSecrets?: boolean;
  /** Reads first-run setup's one-time code (`POST /api/setup`). */
  readsSetupCode?: boolean;
  /** Invokes the webhook deliverer: never shares a role with a function that does not. */
  emitsWebhooks?: boolean;
  /** Reads the table's stream (a stream function): never shares a role with a function that does not. */
  tableStream?: unknown;
}

/** The stack's resources a role's grants name. */
export interface AccessResources {
  table: ITable;
  bucket: IBucket;
  serviceKeys: ISecret;
  /** Only with a sign-in provider configured. */
  oauthClientSecrets?: ISecret | undefined;
  setupCode: ISecret;
}

/**
 * Functions with exactly the same access share one role (docs/scale.md, "Resource budget"): every
 * function had its own role and policy, two of the about seven CloudFormation resources a route
 * cost. The grants are the declared ones, whoever holds them; each function still writes only to
 * log groups of its own class (its own and those of the functions with the same grants).
 */
export const accessClassOf = (access: Access): string =>
  JSON.stringify([
    canonical(access.table),
    canonical(access.bucket),
    access.usesKeys,
    access.readsClientSecrets === true,
    access.readsSetupCode === true,
    access.emitsWebhooks === true,
    access.tableStream !== undefined,
  ]);

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return [...value].sort();
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, inner]) => [key, canonical(inner)]),
    );
  }
  return value;
}

/** One access class's role, with its grants, and the log groups of its functions. */
export class AccessRole extends Construct {
  readonly role: Role;
  /** The key prefixes its object grants end in (cdk-nag's IAM5 findings, acknowledged). */
  readonly objectPrefixes: string[];
  /** Reads the table's stream (its ListStreams names no resource: cdk-nag's IAM5, acknowledged). */
  readsStream = false;
  private readonly logs = new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'] });
  private readonly grants: PolicyDocument | undefined;
  private readonly invoked = new Set<IFunction>();

  constructor(scope: Construct, id: string, access: Access, resources: AccessResources) {
    super(scope, id);
    this.objectPrefixes = [...new Set(Object.values(access.bucket).flat())];
    const grants = [
      ...tableStatements(resources.table, access.table),
      ...bucketStatements(resources.bucket, access.bucket),
      ...(access.usesKeys ? [readSecret(resources.serviceKeys)] : []),
      ...(access.readsClientSecrets && resources.oauthClientSecrets
        ? [readSecret(resources.oauthClientSecrets)]
        : []),
      ...(access.readsSetupCode ? [readSecret(resources.setupCode)] : []),
    ];
    this.grants = grants.length ? new PolicyDocument({ statements: grants }) : undefined;
    // Inline policies, part of the role's own resource (no AWS::IAM::Policy beside it), and not the
    // managed AWSLambdaBasicExecutionRole (logs:* on every log group).
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      inlinePolicies: {
        Logs: new PolicyDocument({ statements: [this.logs] }),
        ...(this.grants ? { Access: this.grants } : {}),
      },
    });
  }

  /**
   * Lets the class's functions' failed events go to a queue (Lambda sends an on-failure destination
   * its record with the function's role), as a statement of the role's own: CDK's destination would
   * add a policy resource beside the role.
   */
  sendsFailedEventsTo(queue: IQueue): void {
    if (!this.grants) throw new Error('a function with no grants has no failure destination');
    this.grants.addStatements(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }),
    );
  }

  /**
   * Lets the class's functions read the table's stream (what Lambda's event source mapping polls
   * with the function's role), as a statement of the role's own: CDK's grant adds a policy resource.
   */
  readsStreamOf(table: ITable): void {
    if (!this.grants) throw new Error('a function with no grants reads no stream');
    this.readsStream = true;
    this.grants.addStatements(
      new PolicyStatement({
        actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
        resources: [table.tableStreamArn as string],
      }),
      new PolicyStatement({ actions: ['dynamodb:ListStreams'], resources: ['*'] }),
    );
  }

  /** Lets the class's functions invoke a function (the webhook deliverer, asynchronously). */
  invokes(fn: IFunction): void {
    if (!this.grants) throw new Error('a function with no grants invokes nothing');
    if (this.invoked.has(fn)) return;
    this.invoked.add(fn);
    this.grants.addStatements(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }),
    );
  }

  /** Lets the class's functions write to a log group (one of theirs). */
  writesTo(logGroup: ILogGroup): void {
    this.logs.addResources(logGroup.logGroupArn);
  }
}

/** What `ISecret.grantRead` grants (the value and its description), as a statement of the role's own. */
const readSecret = (secret: ISecret) =>
  new PolicyStatement({
    actions: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
    resources: [secret.secretArn],
  });

/**
 * Exactly `access`: each item action only on partitions of the kinds listed for it
 * (`dynamodb:LeadingKeys`; actions with the same kinds share a statement), and Query on the listed
 * indexes only.
 */
function tableStatements(table: ITable, access: TableAccess): PolicyStatement[] {
  const statements = groupByValues(access.items ?? {}).map(
    ([partitions, actions]) =>
      new PolicyStatement({
        actions: actions.map((action) => `dynamodb:${action}`),
        resources: [table.tableArn],
        conditions: {
          'ForAllValues:StringLike': {
            'dynamodb:LeadingKeys': partitions.map((partition) => PARTITION_PATTERNS[partition as Partition]),
          },
        },
      }),
  );
  if (access.indexes?.length) {
    statements.push(
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: access.indexes.map((index) => `${table.tableArn}/index/${index}`),
      }),
    );
  }
  return statements;
}

/**
 * Exactly `access`: each object action on the listed key prefixes only (actions with the same
 * prefixes share a statement), ListBucket only for the listed prefixes.
 */
function bucketStatements(bucket: IBucket, access: BucketAccess): PolicyStatement[] {
  const { ListBucket: listed, ...objectActions } = access;
  const statements = groupByValues(objectActions).map(
    ([prefixes, actions]) =>
      new PolicyStatement({
        actions: actions.map((action) => `s3:${action}`),
        resources: prefixes.map((prefix) => bucket.arnForObjects(`${prefix}*`)),
      }),
  );
  if (listed?.length) {
    statements.push(
      new PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': listed.map((prefix) => `${prefix}*`) } },
      }),
    );
  }
  return statements;
}

/** `{A: [x, y], B: [x, y], C: [z]}` → `[[x, y], [A, B]], [[z], [C]]`: one statement per set of values. */
function groupByValues(grants: Partial<Record<string, readonly string[]>>): [string[], string[]][] {
  const groups = new Map<string, [string[], string[]]>();
  for (const [action, values] of Object.entries(grants)) {
    if (!values?.length) continue;
    const sorted = [...values].sort();
    const group = groups.get(sorted.join()) ?? [sorted, []];
    group[1].push(action);
    groups.set(sorted.join(), group);
  }
  return [...groups.values()];
}
