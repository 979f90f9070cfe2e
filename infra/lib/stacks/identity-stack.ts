/**
 * Identity: the Cognito user pool the web signs in to (custom auth: an e-mail pin, then a phone
 * pin, run by the triggers of `cognitoTriggers`; with the passwordLogin switch on, also
 * USER_PASSWORD_AUTH, guarded by the pre-authentication trigger), its `admin` group and the web's
 * public app client. The HTTP API's JWT authorizer trusts this pool and client. The local twin emulates the
 * same pool (infra/local/cognito/): username = our user id, e-mail as a sign-in alias.
 *
 * The pool is stateful and retained; the trigger functions are stateless and live beside it (a
 * pool's triggers must exist before the pool).
 */
import { Aws, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { COGNITO_TRIGGER_TIMEOUT_SECONDS } from '../../../functions/core/budgets';
import { ENV } from '../../../functions/core/env';
import { readSwitches } from '../../../shared/switches';
import type { MarketConfig } from '../config';
import { MarketFunction } from '../constructs/market-function';
import type { CognitoTriggerName } from '../identity';
import { acknowledge, wildcardResourceFinding } from '../nag';
import { pascalId, resourceNames } from '../names';
import { applyAccess, importStateful } from './stateful-refs';

export interface IdentityStackProps extends StackProps {
  config: MarketConfig;
  assetDir: string;
  /** Trigger handler paths by trigger name (those whose module exists). */
  triggers: Partial<Record<CognitoTriggerName, string>>;
  /** WEB_ORIGIN of the trigger functions. */
  webOrigin?: string;
}

/** The groups of the pool (the twin's USER_POOL_GROUPS). */
export const USER_POOL_GROUPS = ['admin'] as const;

/** Sign-in calls (InitiateAuth + RespondToAuthChallenge) one IP may make in 5 minutes. */
export const LOGIN_CALLS_PER_IP = 100;

export class IdentityStack extends Stack {
  readonly userPool: cognito.UserPool;
  readonly webClient: cognito.UserPoolClient;
  readonly triggers: Partial<Record<CognitoTriggerName, MarketFunction>> = {};

  constructor(scope: Construct, id: string, props: IdentityStackProps) {
    super(scope, id, props);
    const { config } = props;
    const names = resourceNames(config);
    const refs = importStateful(this, config);
    // Password login (the passwordLogin switch, from the same FEATURE_* variables the functions
    // get): the web client may use USER_PASSWORD_AUTH and the policy is the spec's 6–32 rule.
    const passwordLogin = readSwitches(config.featureEnv).passwordLogin;

    for (const [name, handler] of Object.entries(props.triggers) as [
      CognitoTriggerName,
      string,
    ][]) {
      const fn = new MarketFunction(this, `Trigger${pascalId(name)}`, {
        handler,
        assetDir: props.assetDir,
        stage: config.stage,
        ...(props.webOrigin === undefined ? {} : { webOrigin: props.webOrigin }),
        logRetentionDays: config.logRetentionDays,
        // No USER_POOL_ID/CLIENT_ID here: the pool depends on its triggers (a cycle otherwise);
        // Cognito puts both in every trigger event (userPoolId, callerContext.clientId).
        environment: {
          ...config.featureEnv,
          [ENV.emailSender]: config.emailSender ?? '',
          [ENV.adminEmails]: config.adminEmails.join(','),
        },
        // Cognito gives a trigger 5 seconds.
        timeoutSeconds: COGNITO_TRIGGER_TIMEOUT_SECONDS,
      });
      applyAccess(fn, { table: 'write' }, refs);
      this.grantMessaging(fn, config);
      this.triggers[name] = fn;
    }

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      userPoolName: `${names.prefix}-users`,
      // Accounts are created by our sign-up call (AdminCreateUser), never by clients.
      selfSignUpEnabled: false,
      // username = our user id; the e-mail is a sign-in alias (used once verified).
      signInAliases: { username: true, email: true },
      signInCaseSensitive: false,
      standardAttributes: {
        email: { required: false, mutable: true },
        phoneNumber: { required: false, mutable: true },
      },
      // Our own pins verify e-mail and phone; Cognito sends no codes.
      autoVerify: { email: false, phone: false },
      accountRecovery: cognito.AccountRecovery.NONE,
      // Pin login: passwords are not used (custom auth only); a strong policy anyway should one
      // be set. Password login: the spec's rule (6 to 32 characters, checked by our schemas).
      passwordPolicy: passwordLogin
        ? {
            minLength: 6,
            requireDigits: false,
            requireLowercase: false,
            requireUppercase: false,
            requireSymbols: false,
            tempPasswordValidity: Duration.days(1),
          }
        : {
            minLength: 12,
            requireDigits: true,
            requireLowercase: true,
            requireUppercase: true,
            requireSymbols: true,
            tempPasswordValidity: Duration.days(1),
          },
      mfa: cognito.Mfa.OFF,
      deletionProtection: config.stage === 'prod',
      removalPolicy: RemovalPolicy.RETAIN,
      lambdaTriggers: {
        ...(this.triggers.defineAuthChallenge
          ? { defineAuthChallenge: this.triggers.defineAuthChallenge.function }
          : {}),
        ...(this.triggers.createAuthChallenge
          ? { createAuthChallenge: this.triggers.createAuthChallenge.function }
          : {}),
        ...(this.triggers.verifyAuthChallengeResponse
          ? { verifyAuthChallengeResponse: this.triggers.verifyAuthChallengeResponse.function }
          : {}),
        // Refuses blocked accounts on password login; a no-op while the switch is off.
        ...(this.triggers.preAuthentication
          ? { preAuthentication: this.triggers.preAuthentication.function }
          : {}),
      },
    });
    if (passwordLogin) {
      acknowledge(
        this.userPool,
        'AwsSolutions-COG1',
        'Password login follows the product rule (spec 001 §5: 6 to 32 characters, no class ' +
          'rules); Cognito throttles failed sign-ins and blocked accounts are refused by the ' +
          'pre-authentication trigger.',
      );
    }
    acknowledge(
      this.userPool,
      'AwsSolutions-COG2',
      'MFA is built into the custom-auth flow: after the e-mail pin, the second factor is a pin ' +
        'sent by SMS to the verified phone (the triggers), so Cognito MFA stays off.',
    );
    acknowledge(
      this.userPool,
      'AwsSolutions-COG3',
      'Threat protection (advanced security) is a paid plan; brute force is limited by the ' +
        'triggers themselves (4-digit single-use pins, 5 tries per pin, failures throttled per ' +
        'account with a capped back-off, functions/accounts/login-throttle.ts) and per IP by the ' +
        'login web ACL below.',
    );

    // Per source at the edge: Cognito gives the custom-auth triggers no caller IP, so AWS WAF
    // counts each IP's sign-in calls (InitiateAuth, RespondToAuthChallenge) and blocks an IP past
    // LOGIN_CALLS_PER_IP in 5 minutes (a login takes 3 calls). docs/operations.md.
    const loginAcl = new wafv2.CfnWebACL(this, 'LoginWebAcl', {
      name: `${names.prefix}-login`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        metricName: `${names.prefix}-login`,
        sampledRequestsEnabled: true,
      },
      rules: [
        {
          name: 'SignInCallsPerIp',
          priority: 0,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              limit: LOGIN_CALLS_PER_IP,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
              scopeDownStatement: {
                regexMatchStatement: {
                  regexString: 'InitiateAuth$|RespondToAuthChallenge$',
                  fieldToMatch: { singleHeader: { Name: 'x-amz-target' } },
                  textTransformations: [{ priority: 0, type: 'NONE' }],
                },
              },
            },
          },
          visibilityConfig: {
            cloudWatchMetricsEnabled: true,
            metricName: `${names.prefix}-login-per-ip`,
            sampledRequestsEnabled: true,
          },
        },
      ],
    });
    new wafv2.CfnWebACLAssociation(this, 'LoginWebAclAssociation', {
      resourceArn: this.userPool.userPoolArn,
      webAclArn: loginAcl.attrArn,
    });

    acknowledge(
      this.userPool,
      'AwsSolutions-COG8',
      'The Plus feature plan buys threat protection and passkeys, which this custom pin flow does ' +
        'not use; the Essentials plan covers custom auth triggers and token revocation.',
    );

    for (const group of USER_POOL_GROUPS) {
      new cognito.CfnUserPoolGroup(this, `${pascalId(group)}Group`, {
        userPoolId: this.userPool.userPoolId,
        groupName: group,
        description:
          group === 'admin'
            ? 'Marketplace administrators (block and unblock accounts, ...)'
            : group,
      });
    }

    this.webClient = this.userPool.addClient('WebClient', {
      userPoolClientName: `${names.prefix}-web`,
      generateSecret: false,
      // ALLOW_CUSTOM_AUTH + ALLOW_REFRESH_TOKEN_AUTH (CDK always adds the refresh flow), plus
      // ALLOW_USER_PASSWORD_AUTH only while the passwordLogin switch is on (the twin's local
      // client follows the same switch).
      authFlows: {
        custom: true,
        user: false,
        userSrp: false,
        userPassword: passwordLogin,
        adminUserPassword: false,
      },
      disableOAuth: true,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(365),
      authSessionValidity: Duration.minutes(3),
    });

    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.webClient.userPoolClientId });
  }

  /** `https://cognito-idp.<region>.amazonaws.com/<poolId>` (the tokens' `iss`). */
  get issuer(): string {
    return `https://cognito-idp.${this.region}.${this.urlSuffix}/${this.userPool.userPoolId}`;
  }

  /** SES e-mail from EMAIL_SENDER (when configured) and SMS through SNS (no topics). */
  private grantMessaging(fn: MarketFunction, config: MarketConfig): void {
    if (config.emailSender !== undefined) {
      const domain = config.emailSender.split('@')[1] ?? '';
      fn.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: ['ses:SendEmail', 'ses:SendRawEmail'],
          resources: [
            `arn:${Aws.PARTITION}:ses:${Aws.REGION}:${Aws.ACCOUNT_ID}:identity/${config.emailSender}`,
            `arn:${Aws.PARTITION}:ses:${Aws.REGION}:${Aws.ACCOUNT_ID}:identity/${domain}`,
          ],
          conditions: { StringEquals: { 'ses:FromAddress': config.emailSender } },
        }),
      );
    }
    // SMS to a phone number has no resource ARN: allow Publish, deny every topic.
    fn.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['sns:Publish'], resources: ['*'] }),
    );
    const topics = `arn:${Aws.PARTITION}:sns:*:*:*`;
    fn.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        effect: iam.Effect.DENY,
        actions: ['sns:Publish'],
        resources: [topics],
      }),
    );
    acknowledge(
      fn.role,
      'AwsSolutions-IAM5[Action::sns:Publish]',
      'SMS pins are published straight to a phone number, which has no ARN; a Deny statement ' +
        'on every SNS topic leaves only direct SMS.',
    );
    acknowledge(
      fn.role,
      wildcardResourceFinding(fn.role, topics),
      'The wildcard is in a Deny statement (every SNS topic), narrowing the SMS permission.',
    );
  }
}
