/**
 * The CDN: one CloudFront distribution serving the web build (default behaviour; a viewer-request
 * function gives a client route its prerendered page or the SPA shell, index.html, and sends a
 * public profile's path to the API's page call, cached for its s-maxage), the HTTP API under
 * /api/* (never cached, viewer headers forwarded) and the public images under /media/*, all with
 * the security-headers policy.
 * The web build (dist/web) is uploaded when it exists.
 */
import { existsSync } from 'node:fs';
import {
  Aws,
  CfnOutput,
  DefaultStackSynthesizer,
  Duration,
  Stack,
  type StackProps,
} from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct, IConstruct } from 'constructs';
import type { MarketConfig } from '../config';
import { acknowledge, wildcardResourceFinding } from '../nag';
import { MEDIA_PATH, resourceNames } from '../names';
import { PRERENDERED_PAGES, PROFILE_PAGE_CALL, PROFILE_PATH, SPA_SHELL } from '../web-pages';

export interface WebStackProps extends StackProps {
  config: MarketConfig;
  /** Host of the HTTP API's endpoint (`<id>.execute-api.<region>.amazonaws.com`). */
  httpApiDomain: string;
  /** `wss://<id>.execute-api.<region>.amazonaws.com`, allowed by the CSP's connect-src. */
  webSocketOrigin: string;
  /** `https://cognito-idp.<region>.amazonaws.com`: Amplify Auth calls it from the browser. */
  cognitoOrigin?: string;
  /** The Vite build to upload; skipped when undefined or missing (synth works without it). */
  webDir: string | undefined;
}

/** The distribution's id of the HTTP API origin, which the viewer-request function selects. */
export const API_ORIGIN_ID = 'api';

/**
 * Files are served as they are; a client route gets its page rendered at build time, a profile
 * path its page rendered on request by the page call (the request goes to the API origin, with
 * the default behaviour's caching: the call's s-maxage), else the SPA shell (infra/lib/web-pages.ts,
 * the tables the local gateway serves from too). `cf` is CloudFront's origin-modification module
 * (JavaScript runtime 2.0).
 */
export function spaRoutingCode(): string {
  const pages = Object.fromEntries(
    Object.entries(PRERENDERED_PAGES).map(([pathname, page]) => [pathname, `/${page.file}`]),
  );
  return `import cf from 'cloudfront';
var ASSET = /\\.(?:html|js|mjs|css|map|json|txt|xml|ico|png|jpe?g|gif|svg|webp|avif|woff2?|ttf|otf|webmanifest)$/i;
var PAGES = ${JSON.stringify(pages)};
var NICK = new RegExp(${JSON.stringify(PROFILE_PATH.nick)});
var RESERVED = ${JSON.stringify(PROFILE_PATH.reserved)};
function handler(event) {
  var request = event.request;
  if (!ASSET.test(request.uri)) {
    var path = request.uri.length > 1 ? request.uri.replace(/\\/+$/, '') : request.uri;
    var segments = path.split('/').filter(function (segment) { return segment !== ''; });
    if (PAGES[path]) request.uri = PAGES[path];
    else if (segments.length === 1 && NICK.test(segments[0]) && RESERVED.indexOf(segments[0]) === -1) {
      request.uri = '${PROFILE_PAGE_CALL}' + segments[0];
      cf.selectRequestOriginById('${API_ORIGIN_ID}');
    } else request.uri = '/${SPA_SHELL}';
  }
  return request;
}`;
}

/** `/media/<key>` → object `<key>` of the images bucket (as on the local gateway). */
const STRIP_MEDIA = `
function handler(event) {
  var request = event.request;
  request.uri = request.uri.replace(/^\\${MEDIA_PATH}\\//, '/');
  return request;
}`;

export function contentSecurityPolicy(webSocketOrigin: string, cognitoOrigin?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // MUI styles through Emotion, which injects <style> elements at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${webSocketOrigin}${cognitoOrigin === undefined ? '' : ` ${cognitoOrigin}`}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

export class WebStack extends Stack {
  readonly distribution: cloudfront.Distribution;
  readonly headersPolicy: cloudfront.ResponseHeadersPolicy;
  /** `https://<domain>`: the custom domain if configured, else CloudFront's. */
  readonly webOrigin: string;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    const { config } = props;
    const names = resourceNames(config);

    // The buckets belong to the DataStack, found by name. Its bucket policies admit this
    // account's CloudFront distributions (see DataStack); this stack cannot edit them.
    const webBucket = s3.Bucket.fromBucketAttributes(this, 'WebBucketRef', {
      bucketName: names.bucketName('web'),
      region: this.region,
    });
    const imagesBucket = s3.Bucket.fromBucketAttributes(this, 'ImagesBucketRef', {
      bucketName: names.bucketName('images'),
      region: this.region,
    });
    const logsBucket = s3.Bucket.fromBucketAttributes(this, 'LogsBucketRef', {
      bucketName: names.bucketName('logs'),
      region: this.region,
    });

    this.headersPolicy = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: `Security headers of ${names.prefix}`,
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: contentSecurityPolicy(props.webSocketOrigin, props.cognitoOrigin),
          override: true,
        },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          preload: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
      },
    });

    const spaFallback = new cloudfront.Function(this, 'SpaFallback', {
      comment: 'Client routes load their prerendered page or the SPA shell',
      code: cloudfront.FunctionCode.fromInline(spaRoutingCode()),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });
    const stripMedia = new cloudfront.Function(this, 'StripMediaPrefix', {
      comment: `${MEDIA_PATH}/<key> reads <key> of the images bucket`,
      code: cloudfront.FunctionCode.fromInline(STRIP_MEDIA),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    const certificate = config.certificateArn
      ? acm.Certificate.fromCertificateArn(this, 'Certificate', config.certificateArn)
      : undefined;
    const webOrigin = origins.S3BucketOrigin.withOriginAccessControl(webBucket);
    const imagesOrigin = origins.S3BucketOrigin.withOriginAccessControl(imagesBucket);
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `Marketplace ${config.stage}`,
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      domainNames: config.domainName ? [config.domainName] : undefined,
      certificate,
      minimumProtocolVersion: certificate
        ? cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021
        : undefined,
      enableLogging: true,
      logBucket: logsBucket,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: webOrigin,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.headersPolicy,
        functionAssociations: [
          { function: spaFallback, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST },
        ],
      },
      additionalBehaviors: {
        '/api/*': {
          origin: new origins.HttpOrigin(props.httpApiDomain, {
            // The viewer-request function sends a profile's path here (spaRoutingCode).
            originId: API_ORIGIN_ID,
            protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
            originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
          }),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          // Every viewer header (Authorization included, allowed with caching disabled) except
          // Host, which must be the API's own for API Gateway to route the request.
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: this.headersPolicy,
        },
        [`${MEDIA_PATH}/*`]: {
          origin: imagesOrigin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
          responseHeadersPolicy: this.headersPolicy,
          functionAssociations: [
            { function: stripMedia, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST },
          ],
        },
      },
    });
    this.webOrigin = config.webOrigin ?? `https://${this.distribution.distributionDomainName}`;

    acknowledge(
      this.distribution,
      '@aws-cdk/aws-cloudfront-origins:updateImportedBucketPolicyOac',
      'The DataStack owns the web and images buckets and their policies, which already admit ' +
        'CloudFront distributions of this account (origin access control).',
    );
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR1',
      'A public marketplace serves every country; no geo restriction is wanted.',
    );
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR2',
      'No AWS WAF web ACL yet: API Gateway stage throttling limits abuse; a WAF (us-east-1) is ' +
        'an operator option listed in docs/operations.md.',
    );
    if (certificate === undefined) {
      acknowledge(
        this.distribution,
        'AwsSolutions-CFR4',
        'Without a custom domain the distribution uses the default *.cloudfront.net certificate, ' +
          'whose TLS policy CloudFront fixes; with domainName it enforces TLSv1.2_2021.',
      );
    }

    if (props.webDir !== undefined && existsSync(props.webDir)) {
      new s3deploy.BucketDeployment(this, 'DeployWeb', {
        sources: [s3deploy.Source.asset(props.webDir)],
        destinationBucket: webBucket,
        distribution: this.distribution,
        distributionPaths: ['/*'],
        prune: true,
        memoryLimit: 512,
      });
      acknowledgeBucketDeployment(this, webBucket);
    }

    new CfnOutput(this, 'WebUrl', { value: this.webOrigin });
    new CfnOutput(this, 'DistributionId', { value: this.distribution.distributionId });
  }
}

/** The findings of CDK's BucketDeployment handler (a singleton Lambda at the stack's root). */
function acknowledgeBucketDeployment(stack: Stack, webBucket: s3.IBucket): void {
  const qualifier =
    (stack.node.tryGetContext('@aws-cdk/core:bootstrapQualifier') as string | undefined) ??
    DefaultStackSynthesizer.DEFAULT_QUALIFIER;
  const assetObjects = `arn:${Aws.PARTITION}:s3:::cdk-${qualifier}-assets-${stack.account}-${stack.region}/*`;
  const handlers: IConstruct[] = stack.node.children.filter((child) =>
    child.node.id.startsWith('Custom::CDKBucketDeployment'),
  );
  const reason =
    "CDK's BucketDeployment handler runs only at deploy time, to copy the web build from the " +
    'CDK asset bucket into the web bucket and invalidate the distribution';
  for (const handler of handlers) {
    acknowledge(handler, 'AwsSolutions-L1', `${reason}; CDK chooses its runtime.`);
    acknowledge(
      handler,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      `${reason}; CDK gives it the basic execution role.`,
    );
    for (const action of [
      's3:GetObject*',
      's3:GetBucket*',
      's3:List*',
      's3:DeleteObject*',
      's3:Abort*',
    ]) {
      acknowledge(
        handler,
        `AwsSolutions-IAM5[Action::${action}]`,
        `${reason}; CDK grants read on the asset and read/write on the web bucket with these action groups.`,
      );
    }
    acknowledge(
      handler,
      wildcardResourceFinding(handler, assetObjects),
      `${reason}; it reads the zipped build from the CDK asset bucket.`,
    );
    acknowledge(
      handler,
      wildcardResourceFinding(handler, webBucket.arnForObjects('*')),
      `${reason}; it writes and prunes the objects of the web bucket.`,
    );
    acknowledge(
      handler,
      'AwsSolutions-IAM5[Resource::*]',
      `${reason}; cloudfront:CreateInvalidation/GetInvalidation are granted on * by CDK.`,
    );
  }
}
