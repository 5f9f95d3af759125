import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { routes } from '#shared/routes/table';
import type { ServiceFunction } from '../../infra/constructs/service-function.ts';
import { API_PATHS, CONTENT_SECURITY_POLICY, HASHED_ASSETS } from '../../infra/dashboard.ts';
import { functionSpecs, isBackground } from '../../infra/functions.ts';
import { FileServiceStack } from '../../infra/stack.ts';
import { flatTemplate, logicalIdOf } from '../support/stack-template.ts';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties are free-form JSON.
type Resource = { Type: string; Properties: any; DependsOn?: string | string[] };

// CloudFront's managed policies, by their fixed ids.
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

/** A built dashboard as Vite leaves it: index.html and content-hashed files under assets/. */
const built = mkdtempSync(join(tmpdir(), 'file-service-web-'));
mkdirSync(join(built, 'assets'));
writeFileSync(
  join(built, 'index.html'),
  '<!doctype html><script type="module" src="/assets/index-Abc123.js"></script>',
);
writeFileSync(join(built, 'assets', 'index-Abc123.js'), 'console.log("dashboard")');
afterAll(() => rmSync(built, { recursive: true, force: true }));

function synthesize(dashboardAssets: string) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new FileServiceStack(app, 'FileService', { dashboardAssets });
  return { stack, template: flatTemplate(stack) };
}

const { stack, template } = synthesize(built);
const resources = template.toJSON().Resources as Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const distribution = ofType('AWS::CloudFront::Distribution')[0]?.[1].Properties.DistributionConfig;
const behaviour = (pattern: string) =>
  distribution.CacheBehaviors.find((candidate: { PathPattern: string }) => candidate.PathPattern === pattern);
const dashboardBucketId = ofType('AWS::S3::Bucket').find(([id]) => id.startsWith('Dashboard'))?.[0] as string;
const apiId = ofType('AWS::ApiGatewayV2::Api')[0]?.[0] as string;
/** The code of the CloudFront Function a behaviour runs on viewer requests. */
const viewerFunction = (cacheBehaviour: {
  FunctionAssociations?: { EventType: string; FunctionARN: { 'Fn::GetAtt': [string, string] } }[];
}) => {
  const [association] = cacheBehaviour.FunctionAssociations ?? [];
  expect(association?.EventType).toBe('viewer-request');
  return resources[association?.FunctionARN['Fn::GetAtt'][0] as string]?.Properties.FunctionCode as string;
};

describe('one CloudFront distribution in front of everything', () => {
  test('the dashboard comes from its private bucket through origin access control, uncached', () => {
    template.resourceCountIs('AWS::CloudFront::Distribution', 1);
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
      }),
    });
    const siteOrigin = distribution.Origins.find(
      (origin: { S3OriginConfig?: unknown }) => origin.S3OriginConfig,
    );
    expect(siteOrigin.DomainName).toEqual({ 'Fn::GetAtt': [dashboardBucketId, 'RegionalDomainName'] });
    expect(siteOrigin.OriginAccessControlId).toBeDefined();
    expect(distribution.DefaultCacheBehavior).toMatchObject({
      TargetOriginId: siteOrigin.Id,
      ViewerProtocolPolicy: 'redirect-to-https',
      CachePolicyId: CACHING_DISABLED,
    });
    expect(distribution.DefaultRootObject).toBe('index.html');
    // Routes of the app get index.html (the function is tested in tests/unit/cloudfront-functions).
    expect(viewerFunction(distribution.DefaultCacheBehavior)).toContain("request.uri = '/index.html'");
  });

  test('the dashboard bucket is not public: all public access blocked, readable by this distribution only', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
    expect(resources[dashboardBucketId]?.Properties.WebsiteConfiguration).toBeUndefined();
    expect(resources[dashboardBucketId]?.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    const [, policy] = ofType('AWS::S3::BucketPolicy').find(
      ([, candidate]) => candidate.Properties.Bucket.Ref === dashboardBucketId,
    ) as [string, Resource];
    const allows = policy.Properties.PolicyDocument.Statement.filter(
      (statement: { Effect: string }) => statement.Effect === 'Allow',
    );
    expect(
      allows.filter((statement: { Principal: { Service?: string } }) => statement.Principal.Service),
    ).toHaveLength(1);
    for (const statement of allows) {
      // CDK's own deployment and auto-delete roles, and CloudFront on behalf of this distribution only.
      if (statement.Principal.Service) {
        expect(statement).toMatchObject({
          Principal: { Service: 'cloudfront.amazonaws.com' },
          Action: 's3:GetObject',
          Condition: { StringEquals: { 'AWS:SourceArn': expect.anything() } },
        });
        expect(JSON.stringify(statement.Condition)).toContain(
          ofType('AWS::CloudFront::Distribution')[0]?.[0],
        );
      } else {
        expect(statement.Principal).not.toBe('*');
        expect(JSON.stringify(statement.Principal)).not.toContain('"*"');
      }
    }
  });

  test.each(API_PATHS)(
    '%s goes to the HTTP API: uncached, every method, all viewer headers but Host, HTTPS only',
    (path) => {
      const apiOrigin = distribution.Origins.find(
        (origin: { CustomOriginConfig?: unknown }) => origin.CustomOriginConfig,
      );
      expect(apiOrigin.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
      expect(JSON.stringify(apiOrigin.DomainName)).toContain(apiId);
      expect(behaviour(path)).toMatchObject({
        TargetOriginId: apiOrigin.Id,
        ViewerProtocolPolicy: 'https-only',
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      });
      // The viewer's host reaches the functions for their cross-site check.
      expect(viewerFunction(behaviour(path))).toContain("request.headers['x-viewer-host']");
    },
  );

  test("Zipline's links /u/* and /r/* reach the HTTP API as /view/* and /raw/* do; so does every route outside /api/", () => {
    const apiOrigin = distribution.Origins.find(
      (origin: { CustomOriginConfig?: unknown }) => origin.CustomOriginConfig,
    );
    for (const path of ['/u/*', '/r/*', '/view/*', '/raw/*'])
      expect([path, behaviour(path)?.TargetOriginId]).toEqual([path, apiOrigin.Id]);
    for (const route of routes.filter((candidate) => !candidate.path.startsWith('/api/'))) {
      const prefix = `/${route.path.split('/')[1]}/*`;
      expect([route.path, behaviour(prefix)?.TargetOriginId]).toEqual([route.path, apiOrigin.Id]);
    }
  });

  test('short links redirect through the distribution: /go/* reaches the API uncached, not the dashboard', () => {
    expect(behaviour('/go/*')).toMatchObject({
      CachePolicyId: CACHING_DISABLED,
      ViewerProtocolPolicy: 'https-only',
    });
    expect(behaviour('/go/*').TargetOriginId).toBe(behaviour('/view/*').TargetOriginId);
  });

  test('hashed assets are cached (and stored immutable), everything else stored no-cache', () => {
    expect(behaviour(`/${HASHED_ASSETS}`)).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      CachePolicyId: CACHING_OPTIMIZED,
    });
    const deployments = ofType('Custom::CDKBucketDeployment').map(([, deployment]) => deployment.Properties);
    expect(deployments).toHaveLength(2);
    for (const deployment of deployments)
      expect(deployment.DestinationBucketName).toEqual({ Ref: dashboardBucketId });
    expect(deployments).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Include: [HASHED_ASSETS],
          Exclude: ['*'],
          Prune: false,
          SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
        }),
        expect.objectContaining({
          Exclude: [HASHED_ASSETS],
          SystemMetadata: { 'cache-control': 'no-cache' },
        }),
      ]),
    );
  });

  test('every answer carries the security headers: CSP, no framing, HSTS, nosniff, referrer policy (a response that sets its own CSP and referrer policy, the view page, keeps them)', () => {
    const [policyId, policy] = ofType('AWS::CloudFront::ResponseHeadersPolicy')[0] as [string, Resource];
    const security = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(security.ContentSecurityPolicy).toEqual({
      ContentSecurityPolicy: CONTENT_SECURITY_POLICY,
      Override: false,
    });
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self';");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(security.StrictTransportSecurity).toEqual({
      AccessControlMaxAgeSec: 730 * 24 * 3600,
      IncludeSubdomains: true,
      Override: true,
    });
    expect(security.ContentTypeOptions).toEqual({ Override: true });
    expect(security.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(security.ReferrerPolicy).toEqual({
      ReferrerPolicy: 'strict-origin-when-cross-origin',
      Override: false,
    });
    for (const cacheBehaviour of [distribution.DefaultCacheBehavior, ...distribution.CacheBehaviors])
      expect(cacheBehaviour.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
  });

  test('DashboardUrl is a stack output; the API keeps its own URL for token clients', () => {
    template.hasOutput('DashboardUrl', {
      Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [Match.anyValue(), 'DomainName'] }, '/']] },
    });
    template.hasOutput('ApiUrl', Match.anyValue());
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
  });

  test('no dependency cycle: the distribution depends on the API, the API functions on the distribution', () => {
    const references = (value: unknown): string[] => {
      if (Array.isArray(value)) return value.flatMap(references);
      if (!value || typeof value !== 'object') return [];
      const object = value as Record<string, unknown>;
      if (typeof object.Ref === 'string') return [object.Ref];
      if (Array.isArray(object['Fn::GetAtt'])) return [String(object['Fn::GetAtt'][0])];
      return Object.values(object).flatMap(references);
    };
    const edges = new Map(
      Object.entries(resources).map(([id, resource]) => [
        id,
        [...references(resource.Properties), ...[resource.DependsOn ?? []].flat()].filter(
          (ref) => ref in resources,
        ),
      ]),
    );
    const dependsOn = (from: string, to: string, seen = new Set<string>()): boolean =>
      (edges.get(from) ?? []).some(
        (next) => next === to || (!seen.has(next) && seen.add(next) && dependsOn(next, to, seen)),
      );
    const distributionId = ofType('AWS::CloudFront::Distribution')[0]?.[0] as string;
    expect(dependsOn(distributionId, apiId)).toBe(true);
    // The API functions check the origin secret the distribution sends (and the passkey ceremonies
    // know its name): each is updated after it. The background functions answer no request.
    const logicalId = (handler: string) =>
      logicalIdOf((stack.functions.get(handler) as ServiceFunction).function);
    for (const spec of functionSpecs()) {
      const background = isBackground(spec);
      expect([spec.handler, dependsOn(logicalId(spec.handler), distributionId)]).toEqual([
        spec.handler,
        !background,
      ]);
    }
    // Acyclic: no resource reaches itself.
    expect(Object.keys(resources).filter((id) => dependsOn(id, id))).toEqual([]);
  });
});

test('before the dashboard is built, synth still works: a placeholder page and a warning', () => {
  const missing = synthesize(join(built, 'not-built'));
  Annotations.fromStack(missing.stack).hasWarning('*', Match.stringLikeRegexp('npm run build:web'));
  missing.template.resourceCountIs('Custom::CDKBucketDeployment', 2);
  Annotations.fromStack(stack).hasNoWarning('*', Match.stringLikeRegexp('npm run build:web'));
});
