import { describe, expect, it } from 'vitest';
import { ENV } from '../../../functions/core/env';
import { twin } from '../test/twin-context';

/** The twin's Cognito wiring: the endpoint, its ids in the handler environment and the context. */
describe('the twin wires the local user pool', () => {
  it('exports the pool, the client and the endpoint', async () => {
    const context = twin();
    expect(context.userPoolId).toBe('us-east-1_local');
    expect(context.userPoolClientId).not.toBe('');
    expect(context.env[ENV.userPoolId]).toBe(context.userPoolId);
    expect(context.env[ENV.userPoolClientId]).toBe(context.userPoolClientId);
    expect(context.env[ENV.cognitoEndpoint]).toBe(context.urls.cognito);
    expect(context.env.AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER).toBe(context.urls.cognito);
    const jwks = (await (
      await fetch(`${context.urls.cognito}/${context.userPoolId}/.well-known/jwks.json`)
    ).json()) as { keys: { alg: string }[] };
    expect(jwks.keys.map((key) => key.alg)).toEqual(['RS256']);
  });
});
