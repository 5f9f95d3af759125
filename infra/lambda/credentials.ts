import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * Stands in for `@aws-sdk/credential-provider-node` in the Lambda bundles (an esbuild alias set by
 * ServiceFunction). Lambda hands every function its role's credentials in environment variables,
 * and so does `sam local`; the SDK's full default chain (profiles, SSO, IMDS, STS web identity)
 * would add 110–140 KB to every bundle and to every cold start.
 */
export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
