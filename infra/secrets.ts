import { RemovalPolicy as Removal, type RemovalPolicy } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';

export interface SecretsProps {
  /** The service keys' and the client secrets' (retained with the data by default). */
  dataRemovalPolicy: RemovalPolicy;
  /** A sign-in provider is configured: its client secrets need a secret. */
  signInProviders: boolean;
}

/** The stack's secrets, all generated at deploy: the template holds none of their values. */
export function serviceSecrets(scope: Construct, props: SecretsProps) {
  // The shape `parseServiceKeys` accepts; the session and token keys are derived from it.
  const serviceKeys = new Secret(scope, 'ServiceKeys', {
    description: 'Master key of the file service (session seal password and token key derive from it)',
    generateSecretString: {
      secretStringTemplate: JSON.stringify({ id: '1' }),
      generateStringKey: 'secret',
      passwordLength: 64,
      excludePunctuation: true,
    },
    removalPolicy: props.dataRemovalPolicy,
  });

  // Only with a provider configured: the client secrets, by provider id. Its value is set after the
  // deploy (docs/deploy.md); until then the callback answers that the provider is not set up.
  const oauthClientSecrets = props.signInProviders
    ? new Secret(scope, 'OAuthClientSecrets', {
        description:
          'Client secrets of the sign-in providers: {"<provider id>": "<client secret>", ...} (docs/deploy.md)',
        // Generated, so the template holds no secret value: `{"placeholder": "<random>"}` until the
        // providers' secrets are put in.
        generateSecretString: { secretStringTemplate: '{}', generateStringKey: 'placeholder' },
        removalPolicy: props.dataRemovalPolicy,
      })
    : undefined;

  // CloudFront presents it to the API with every request; the functions trust the viewer headers
  // (host, address) only beside it (shared/http/distribution.ts, docs/security.md). Its value
  // reaches both as a dynamic reference resolved at deploy, never in the template.
  const originSecret = new Secret(scope, 'OriginSecret', {
    description: 'Header value CloudFront adds to the API requests it passes on (x-origin-secret)',
    generateSecretString: { passwordLength: 48, excludePunctuation: true },
    removalPolicy: Removal.DESTROY,
  });

  // First-run setup's one-time code: in AWS, `POST /api/setup` needs it, so whoever finds the new
  // deployment first cannot make themselves its super administrator (docs/deploy.md, step 3).
  const setupCode = new Secret(scope, 'SetupCode', {
    description: 'One-time code the first-run setup asks for (POST /api/setup)',
    generateSecretString: { passwordLength: 24, excludePunctuation: true },
    removalPolicy: Removal.DESTROY,
  });

  return { serviceKeys, oauthClientSecrets, originSecret, setupCode };
}
