import { App } from 'aws-cdk-lib';
import { LOG_LEVELS, type LogLevelName, type OAuthSettings } from './constructs/service-function.ts';
import type { DashboardDomain } from './dashboard.ts';
import { checkPolicies } from './policy-checks.ts';
import { DEFAULT_STACK_NAME, FileServiceStack } from './stack.ts';

/**
 * `cdk synth|deploy|destroy` entry point. Environment-agnostic (no account or region lookups), so
 * synth runs offline without credentials. Context (`-c name=value`, all optional):
 * - `stackName=FileService`: the CloudFormation stack's name; a second deployment in the same
 *   account (another region, or beside the first) takes another one (docs/deploy.md);
 * - `reservedConcurrency=false`: no reserved concurrency for the background functions (an account
 *   whose Lambda concurrency quota is under 112; infra/background.ts);
 * - `retainData=false` lets `destroy` delete the table and the bucket;
 * - `allowedOrigins=https://a.example,https://b.example`: other pages allowed to make cookie writes;
 * - `alarmEmail=ops@example.com`: subscribed to the alarm topic;
 * - `logLevel=DEBUG|INFO|WARN|ERROR`: the functions' log level (INFO: one line per request);
 * - `functionAlarms=false`: no alarm per area nor per background function (docs/operations.md);
 * - `alarms=false`: no alarm at all (the cheapest idle deployment: docs/operations.md);
 * - `areas=false`: the parent stack alone, no area (the first deploy of an upgrade from the
 *   single-stack layout: docs/deploy.md);
 * - `domainName=files.example.com` with `certificateArn=arn:aws:acm:us-east-1:...` (and, when the zone
 *   is in Route 53, `hostedZoneId=Z...` with `hostedZoneName=example.com`): your own name;
 * - sign-in providers (none by default; their client secrets go into the OAuthClientSecrets secret):
 *   `oidcIssuer=https://id.example.com` with `oidcClientId=...` (and `oidcName=Example ID` for the
 *   button), `githubClientId=...`, `discordClientId=...`, `googleClientId=...`; `oauthSignup=true` lets
 *   a provider account nobody linked create a USER.
 */
const app = new App();
const context = (name: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(name);
  return typeof value === 'string' && value !== '' ? value : undefined;
};

function domainFromContext(): DashboardDomain | undefined {
  const name = context('domainName');
  const certificateArn = context('certificateArn');
  if (!name && !certificateArn) return undefined;
  if (!name || !certificateArn)
    throw new Error('-c domainName and -c certificateArn go together (the certificate must be in us-east-1)');
  const zoneId = context('hostedZoneId');
  const zoneName = context('hostedZoneName');
  if (Boolean(zoneId) !== Boolean(zoneName))
    throw new Error('-c hostedZoneId and -c hostedZoneName go together');
  return {
    name,
    certificateArn,
    ...(zoneId && zoneName ? { hostedZone: { id: zoneId, name: zoneName } } : {}),
  };
}

function oauthFromContext(): OAuthSettings {
  const providers: OAuthSettings['providers'] = [];
  const oidcClientId = context('oidcClientId');
  const oidcIssuer = context('oidcIssuer');
  if (Boolean(oidcClientId) !== Boolean(oidcIssuer))
    throw new Error('-c oidcClientId and -c oidcIssuer go together');
  if (oidcClientId && oidcIssuer) {
    const name = context('oidcName');
    providers.push({ id: 'oidc', clientId: oidcClientId, issuer: oidcIssuer, ...(name ? { name } : {}) });
  }
  for (const id of ['github', 'discord', 'google'] as const) {
    const clientId = context(`${id}ClientId`);
    if (clientId) providers.push({ id, clientId });
  }
  return { providers, signup: context('oauthSignup') === 'true' };
}

const alarmEmail = context('alarmEmail');
const logLevel = context('logLevel')?.toUpperCase();
if (logLevel !== undefined && !(LOG_LEVELS as readonly string[]).includes(logLevel))
  throw new Error(`-c logLevel must be one of ${LOG_LEVELS.join(', ')}`);
const domain = domainFromContext();
const stackName = context('stackName') ?? DEFAULT_STACK_NAME;
// CloudFormation's rule for stack names (it also names the metrics, the alarms and the dashboard).
if (!/^[A-Za-z][A-Za-z0-9-]{0,127}$/.test(stackName))
  throw new Error('-c stackName must start with a letter and hold only letters, digits and hyphens');
new FileServiceStack(app, stackName, {
  retainData:
    app.node.tryGetContext('retainData') !== 'false' && app.node.tryGetContext('retainData') !== false,
  allowedOrigins: context('allowedOrigins')?.split(',').filter(Boolean) ?? [],
  ...(alarmEmail ? { alarmEmail } : {}),
  ...(logLevel ? { logLevel: logLevel as LogLevelName } : {}),
  functionAlarms: context('functionAlarms') !== 'false',
  alarms: context('alarms') !== 'false',
  ...(domain ? { domain } : {}),
  oauth: oauthFromContext(),
  reserveConcurrency: context('reservedConcurrency') !== 'false',
  areas: context('areas') !== 'false',
});
checkPolicies(app);
app.synth();
