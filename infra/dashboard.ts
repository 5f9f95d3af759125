import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Annotations, Aws, Duration, Fn, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { AaaaRecord, ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import type { Bucket, IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, type ISource, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { ORIGIN_SECRET_HEADER } from '#shared/http/distribution';
import { cloudfrontCode } from './cloudfront-code.ts';
import { privateBucket } from './constructs/private-bucket.ts';

/**
 * Paths CloudFront passes to the HTTP API, uncached; everything else is the dashboard. `/u/*` and
 * `/r/*` are Zipline 4.4's file links (its files route and raw route), so links made for it work;
 * `/go/*`: short links' redirects (issue 34), never cached so each counts its view and a disabled
 * link stops at once.
 */
export const API_PATHS = ['/api/*', '/raw/*', '/view/*', '/u/*', '/r/*', '/go/*', '/folder/*'] as const;

/**
 * Every status CloudFront can cache as an error. Cached for 0 s: otherwise CloudFront keeps an
 * error answer to a GET for 10 s, keyed by URL only, whatever the API said (a transient 503 on
 * `GET /api/user` served to every dashboard at that edge, a USER's 403 to an admin).
 */
export const UNCACHED_ERROR_STATUSES = [400, 403, 404, 405, 414, 416, 500, 501, 502, 503, 504] as const;

/** Where Vite puts content-hashed files (its default `assetsDir`): cached for good. */
export const HASHED_ASSETS = 'assets/*';

/**
 * The dashboard's content security policy: its own scripts only, and file bytes from S3 (previews,
 * downloads and presigned uploads go straight to the files bucket). Inline styles are allowed for
 * the component library's style attributes.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https://*.amazonaws.com",
  "media-src 'self' blob: https://*.amazonaws.com",
  "connect-src 'self' https://*.amazonaws.com",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Your own name for the distribution (`-c domainName=files.example.com -c certificateArn=...`). */
export interface DashboardDomain {
  name: string;
  /** An ACM certificate in us-east-1 (CloudFront's region) covering `name`. */
  certificateArn: string;
  /** When the name's zone is in Route 53: the A and AAAA alias records are created there. */
  hostedZone?: { id: string; name: string };
}

export interface DashboardProps {
  api: HttpApi;
  /** The built dashboard (`npm run build:web` writes web/dist). */
  assetsDir: string;
  /** Where the assets bucket's S3 access logs go. */
  accessLogBucket: IBucket;
  domain?: DashboardDomain;
  /**
   * Sent to the API with every request (`x-origin-secret`): the functions believe the viewer
   * headers only beside it. A dynamic reference, resolved by CloudFormation at deploy.
   */
  originSecret: string;
}

/**
 * One CloudFront distribution in front of everything: the built dashboard from a private bucket
 * (origin access control), the API's paths passed through uncached with everything but Host, HTTPS
 * only, security headers on every answer, no error answer cached. The API's requests carry the
 * origin secret and the viewer's host and address (x-viewer-host, x-viewer-address, set by a
 * viewer-request function); with a custom domain every other name redirects to it.
 */
export class Dashboard extends Construct {
  readonly distribution: Distribution;
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: DashboardProps) {
    super(scope, id);
    // Rebuilt from web/dist on every deploy: nothing in it is data worth keeping.
    this.bucket = privateBucket(this, 'Assets', {
      retain: false,
      serverAccessLogsBucket: props.accessLogBucket,
      serverAccessLogsPrefix: 'dashboard/',
    });

    // Policy names are account-wide (CloudFront is global): the stack's name and region make it unique.
    const headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      responseHeadersPolicyName: `${Stack.of(this).stackName}-${Aws.REGION}-security-headers`,
      comment: 'File service: CSP, HSTS, nosniff, no framing, referrer policy',
      securityHeadersBehavior: {
        // A response with its own policy keeps it: the view page's (no script at all) is stricter.
        contentSecurityPolicy: { contentSecurityPolicy: CONTENT_SECURITY_POLICY, override: false },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          // The view page sends no-referrer: its presigned links must not travel to other sites.
          override: false,
        },
      },
    });
    const domain = props.domain;
    const viewerRequest = (name: string, file: string) => [
      {
        eventType: FunctionEventType.VIEWER_REQUEST,
        function: new EdgeFunction(this, name, {
          code: FunctionCode.fromInline(cloudfrontCode(file, domain?.name)),
          runtime: FunctionRuntime.JS_2_0,
        }),
      },
    ];

    const site = S3BucketOrigin.withOriginAccessControl(this.bucket);
    // apiEndpoint is `https://<id>.execute-api.<region>.<suffix>`: its host is the third part.
    const apiOrigin = new HttpOrigin(Fn.select(2, Fn.split('/', props.api.apiEndpoint)), {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      // Replaces any header of that name the viewer sent: only the distribution can present it.
      customHeaders: { [ORIGIN_SECRET_HEADER]: props.originSecret },
    });
    const api: BehaviorOptions = {
      origin: apiOrigin,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: headers,
      functionAssociations: viewerRequest('ViewerHost', 'viewer-host.js'),
    };
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'File service: dashboard and API',
      httpVersion: HttpVersion.HTTP2_AND_3,
      ...(domain
        ? {
            domainNames: [domain.name],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      defaultRootObject: 'index.html',
      errorResponses: UNCACHED_ERROR_STATUSES.map((httpStatus) => ({ httpStatus, ttl: Duration.seconds(0) })),
      // index.html and the app's routes: never cached, so a deploy shows at once.
      defaultBehavior: {
        origin: site,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        responseHeadersPolicy: headers,
        functionAssociations: viewerRequest('SpaIndex', 'spa-index.js'),
      },
      additionalBehaviors: {
        ...Object.fromEntries(API_PATHS.map((path) => [path, api])),
        [`/${HASHED_ASSETS}`]: {
          origin: site,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: CachePolicy.CACHING_OPTIMIZED,
          responseHeadersPolicy: headers,
          ...(domain ? { functionAssociations: viewerRequest('CanonicalHost', 'canonical-only.js') } : {}),
        },
      },
    });

    if (domain?.hostedZone) {
      const zone = HostedZone.fromHostedZoneAttributes(this, 'Zone', {
        hostedZoneId: domain.hostedZone.id,
        zoneName: domain.hostedZone.name,
      });
      const target = RecordTarget.fromAlias(new CloudFrontTarget(this.distribution));
      new ARecord(this, 'AliasV4', { zone, recordName: domain.name, target });
      new AaaaRecord(this, 'AliasV6', { zone, recordName: domain.name, target });
    }

    // Hashed files first and never pruned (a page loaded before a deploy still finds its chunks),
    // then everything else with no-cache, pruned of what the new build no longer has.
    const source = dashboardSource(this, props.assetsDir);
    const hashed = new BucketDeployment(this, 'HashedAssets', {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: [HASHED_ASSETS],
      cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')],
      prune: false,
    });
    const pages = new BucketDeployment(this, 'Pages', {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: [HASHED_ASSETS],
      cacheControl: [CacheControl.noCache()],
    });
    pages.node.addDependency(hashed);
  }
}

/**
 * The built dashboard; before it has been built (a fresh clone that has not run `npm run build:web`),
 * a page that says so, and a synth warning, so the API still deploys.
 */
function dashboardSource(scope: Construct, assetsDir: string): ISource {
  if (existsSync(join(assetsDir, 'index.html'))) return Source.asset(assetsDir);
  Annotations.of(scope).addWarningV2(
    'file-service:dashboardNotBuilt',
    `${assetsDir} has no index.html: the dashboard is a placeholder page (run \`npm run build:web\`, then deploy)`,
  );
  return Source.data(
    'index.html',
    '<!doctype html><html lang="en"><meta charset="utf-8"><title>File service</title>' +
      '<p>The dashboard was not built before this deployment. Run <code>npm run build:web</code> and deploy again.</p></html>',
  );
}
