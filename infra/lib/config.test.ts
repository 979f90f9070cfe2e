import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from './config';

describe('readConfig', () => {
  it('has sensible defaults for a dev stage', () => {
    expect(readConfig({})).toEqual({
      appName: 'market',
      stage: 'dev',
      domainName: undefined,
      certificateArn: undefined,
      webOrigin: undefined,
      corsOrigins: [],
      emailSender: undefined,
      stripeSecretName: 'market/dev/stripe',
      auth: undefined,
      adminEmails: [],
      alarmEmail: undefined,
      logRetentionDays: 30,
      apiRateLimit: 100,
      apiBurstLimit: 200,
      apiGatewayLogRole: true,
      featureEnv: { AUCTION_SOFT_CLOSE_MINUTES: '5' },
    });
  });

  it('turns the features context into the FEATURE_* variables of the functions', () => {
    expect(
      readConfig({ features: '{"passwordLogin":true,"mintableTypes":["physical","ticket"]}' })
        .featureEnv,
    ).toEqual({
      FEATURE_PASSWORD_LOGIN: 'true',
      FEATURE_MINTABLE_TYPES: 'physical,ticket',
      AUCTION_SOFT_CLOSE_MINUTES: '5',
    });
    expect(readConfig({ features: { faq: 'on' } }).featureEnv).toEqual({
      FEATURE_FAQ: 'on',
      AUCTION_SOFT_CLOSE_MINUTES: '5',
    });
  });

  it("passes the auctions' soft-close window (an operator setting) to every function", () => {
    expect(readConfig({ auctionSoftCloseMinutes: 3 }).featureEnv.AUCTION_SOFT_CLOSE_MINUTES).toBe(
      '3',
    );
    expect(() => readConfig({ auctionSoftCloseMinutes: 0 })).toThrow(/auctionSoftCloseMinutes/);
  });

  it('reads the admin e-mails, lower-cased', () => {
    expect(readConfig({ adminEmails: ' Root@Example.com, ops@example.com ' }).adminEmails).toEqual([
      'root@example.com',
      'ops@example.com',
    ]);
  });

  it('reads the e-mail the alarm topic notifies', () => {
    expect(readConfig({ alarmEmail: ' ops@example.com ' }).alarmEmail).toBe('ops@example.com');
    expect(readConfig({ alarmEmail: '' }).alarmEmail).toBeUndefined();
  });

  it.each([['nobody'], ['ops@example.com,dev@example.com'], ['ops @example.com'], [42]])(
    'refuses the alarmEmail %j',
    (alarmEmail) => {
      expect(() => readConfig({ alarmEmail })).toThrow(ConfigError);
      expect(() => readConfig({ alarmEmail })).toThrow(/"alarmEmail"/);
    },
  );

  it.each([
    ['not JSON', '{passwordLogin'],
    ['an array', '["faq"]'],
    ['an unknown switch', '{"teleport":true}'],
    ['a bad value', '{"fiat":"maybe"}'],
    ['an unknown mintable type', '{"mintableTypes":["investment"]}'],
  ])('refuses features that are %s', (_label, features) => {
    expect(() => readConfig({ features })).toThrow(ConfigError);
  });

  it('derives the web origin and sender from the domain', () => {
    const config = readConfig({
      stage: 'prod',
      domainName: 'market.example.com',
      certificateArn:
        'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-0000-1111-2222-333344445555',
    });
    expect(config.webOrigin).toBe('https://market.example.com');
    expect(config.emailSender).toBe('no-reply@market.example.com');
    expect(config.stripeSecretName).toBe('market/prod/stripe');
  });

  it('builds the Cognito issuer from the user pool id', () => {
    const config = readConfig({ userPoolId: 'eu-west-1_AbC123', userPoolClientId: 'a1, b2' });
    expect(config.auth).toEqual({
      issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123',
      audience: ['a1', 'b2'],
    });
  });

  it.each([
    [{ stage: 'Prod' }, /"stage"/],
    [{ domainName: 'market.example.com' }, /certificateArn/],
    [{ certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc' }, /us-east-1/],
    [{ emailSender: 'nobody' }, /emailSender/],
    [{ userPoolId: 'eu-west-1_AbC123' }, /userPoolClientId/],
    [{ logRetentionDays: '31' }, /logRetentionDays/],
    [{ apiGatewayLogRole: 'yes' }, /apiGatewayLogRole/],
    [{ corsOrigins: 'localhost:5173' }, /corsOrigins/],
    [{ adminEmails: 'root@example.com,nobody' }, /adminEmails/],
    [{ adminEmails: 'a@example.com,A@example.com' }, /each e-mail once/],
  ])('rejects %j', (context, message) => {
    expect(() => readConfig(context)).toThrow(message);
  });
});
