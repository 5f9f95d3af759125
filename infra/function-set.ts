import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct, IConstruct } from 'constructs';
import { type AccessResources, AccessRole, accessClassOf } from './constructs/access-role.ts';
import { type LogLevelName, type OAuthSettings, ServiceFunction } from './constructs/service-function.ts';
import { type FunctionSpec, usesBucket, usesTable } from './functions.ts';

/** What every function of the service is given, whichever stack (parent or area) holds it. */
export interface FunctionSettings {
  /** The shared stateful resources, owned by the parent stack (an area gets them as parameters). */
  resources: AccessResources;
  /** With at least one sign-in provider only. */
  oauth: OAuthSettings | undefined;
  allowedOrigins: readonly string[];
  logRetention: RetentionDays;
  logLevel: LogLevelName;
  /** The parent stack's name: the embedded metrics' namespace, whichever stack the function is in. */
  metricsNamespace: string;
  metafile: boolean;
  /** The webhook deliverer (parent stack), which the functions announcing uploads and links invoke. */
  webhookDeliverer?: IFunction;
}

/** What the functions that answer API requests are given besides (the distribution's part). */
export interface RequestSettings {
  /** The origin secret's value, a dynamic reference resolved at deploy. */
  originSecretValue: string;
  /** `https://` and the dashboard's name: the passkeys' relying party and the providers' return. */
  dashboardOrigin: string;
  /** The functions update after it (docs/security.md, origin secret). */
  distribution: IConstruct;
}

/**
 * The functions of `specs` in `scope`, each granted exactly what its routes declare; functions with
 * the same access share one role, named after the first function of the class (one set of roles
 * per stack: a role never serves functions of two stacks).
 */
export function createFunctions(
  scope: Construct,
  specs: readonly FunctionSpec[],
  settings: FunctionSettings,
) {
  const { resources, oauth } = settings;
  const functions = new Map<string, ServiceFunction>();
  const roles = new Map<string, AccessRole>();
  for (const spec of specs) {
    const grants = {
      ...spec,
      readsClientSecrets: resources.oauthClientSecrets !== undefined && spec.oauth === 'secrets',
      readsSetupCode: spec.setupCode === 'checks',
    };
    const accessClass = accessClassOf(grants);
    const access = roles.get(accessClass) ?? new AccessRole(scope, `${spec.id}Access`, grants, resources);
    roles.set(accessClass, access);
    const fn = new ServiceFunction(scope, spec.id, {
      access,
      handler: spec.handler,
      hashesPasswords: spec.hashesPasswords,
      native: spec.native,
      ffmpeg: spec.ffmpeg === true,
      scheduled: spec.everyMinutes !== undefined,
      ...(spec.longRun ? { longRun: spec.longRun } : {}),
      ...(spec.invoked ? { timeoutSeconds: spec.invoked.timeoutSeconds } : {}),
      logRetention: settings.logRetention,
      logLevel: settings.logLevel,
      metricsNamespace: settings.metricsNamespace,
      metafile: settings.metafile,
    });
    if (usesTable(spec)) fn.useTable(resources.table);
    if (spec.usesKeys) fn.useServiceKeys(resources.serviceKeys);
    if (oauth && spec.oauth)
      fn.useOAuth(oauth, spec.oauth === 'secrets' ? (resources.oauthClientSecrets as ISecret) : undefined);
    if (usesBucket(spec)) fn.useBucket(resources.bucket);
    // Both setup functions learn that a code is needed; only the one that checks it may read it.
    if (spec.setupCode) fn.useSetupCode(resources.setupCode);
    if (settings.allowedOrigins.length)
      fn.function.addEnvironment('ALLOWED_ORIGINS', settings.allowedOrigins.join(','));
    if (spec.emitsWebhooks) {
      const deliverer = settings.webhookDeliverer;
      if (!deliverer)
        throw new Error(`${spec.handler} announces webhooks, but no deliverer was made before it`);
      access.invokes(deliverer);
      fn.function.addEnvironment('WEBHOOKS_FUNCTION_NAME', deliverer.functionName);
    }
    functions.set(spec.handler, fn);
  }
  return { functions, roles };
}

/** What a function that answers API requests learns of the distribution in front of the API. */
export function answersRequests(
  fn: ServiceFunction,
  spec: FunctionSpec,
  settings: FunctionSettings,
  requests: RequestSettings,
): void {
  fn.function.addEnvironment('ORIGIN_SECRET', requests.originSecretValue);
  // Updated after the distribution, so that on the deploy that brings the origin secret no
  // function insists on it before CloudFront sends it (cookie writes would be refused meanwhile).
  fn.function.node.addDependency(requests.distribution);
  if (spec.passkeys) fn.function.addEnvironment('PASSKEY_ORIGIN', requests.dashboardOrigin);
  if (settings.oauth && spec.oauth) fn.function.addEnvironment('PUBLIC_ORIGIN', requests.dashboardOrigin);
}
