/**
 * The CDK app (cdk.json runs it). Settings come from CDK context, e.g.
 *
 *   npx cdk deploy --all -c stage=prod -c domainName=market.example.com \
 *     -c certificateArn=arn:aws:acm:us-east-1:... -c emailSender=no-reply@market.example.com
 *
 * (docs/operations.md lists them all). The handler bundles must exist: `npm run build:functions`
 * (npm run synth does it); the web build in dist/web is deployed when present.
 */
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { buildApp } from '../lib/app';
import { DEFAULT_BUNDLE_DIR, REPO_ROOT } from '../lib/bundle';

const app = new App();
buildApp({
  app,
  // MARKET_BUNDLE_DIR: bundles built elsewhere (e.g. stubs when trying the synth alone).
  assetDir: process.env.MARKET_BUNDLE_DIR ?? DEFAULT_BUNDLE_DIR,
  webDir: path.join(REPO_ROOT, 'dist', 'web'),
});
