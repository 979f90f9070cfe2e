import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';

/**
 * The identity directory (the Cognito user pool), as the sign-up use case needs it. Injected, so
 * use cases are tested with a fake; in both runtimes the real one talks to a Cognito endpoint
 * (the twin's local one through COGNITO_ENDPOINT).
 */
export interface IdentityDirectory {
  /**
   * Creates the pool user: username = our user id; e-mail and phone as attributes. Idempotent:
   * an existing user of that username counts as created (a replayed sign-up).
   */
  createUser(input: {
    username: string;
    email: string;
    phone: string;
    nick: string;
  }): Promise<void>;
  addToGroup(input: { username: string; group: string }): Promise<void>;
  /**
   * Sets the user's password (AdminSetUserPassword, Permanent: the user is CONFIRMED and signs in
   * with it through USER_PASSWORD_AUTH). Only while the passwordLogin switch is on. Idempotent.
   */
  setPassword(input: { username: string; password: string }): Promise<void>;
}

export const ADMIN_GROUP = 'admin';

export function createCognitoDirectory(deps: {
  client: CognitoIdentityProviderClient;
  userPoolId: string | undefined;
}): IdentityDirectory {
  const poolId = (): string => {
    if (deps.userPoolId === undefined) throw new Error('USER_POOL_ID is not configured');
    return deps.userPoolId;
  };
  return {
    async createUser({ username, email, phone, nick }) {
      try {
        await deps.client.send(
          new AdminCreateUserCommand({
            UserPoolId: poolId(),
            Username: username,
            MessageAction: 'SUPPRESS',
            // Verified flags let the e-mail alias sign in; the login pins prove both at every login.
            UserAttributes: [
              { Name: 'email', Value: email },
              { Name: 'email_verified', Value: 'true' },
              { Name: 'phone_number', Value: phone },
              { Name: 'phone_number_verified', Value: 'true' },
              // Standard attribute, in the id token: the web shows "logged in as @nick" from it.
              { Name: 'nickname', Value: nick },
            ],
          }),
        );
      } catch (error) {
        if ((error as { name?: string }).name === 'UsernameExistsException') return;
        throw error;
      }
    },
    async addToGroup({ username, group }) {
      await deps.client.send(
        new AdminAddUserToGroupCommand({
          UserPoolId: poolId(),
          Username: username,
          GroupName: group,
        }),
      );
    },
    async setPassword({ username, password }) {
      await deps.client.send(
        new AdminSetUserPasswordCommand({
          UserPoolId: poolId(),
          Username: username,
          Password: password,
          Permanent: true,
        }),
      );
    },
  };
}
