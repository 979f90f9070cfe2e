import {
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminUserGlobalSignOutCommand,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import type { SessionsDirectory } from './sessions';

/**
 * The user pool side of sessions. A pool user that does not exist (a sign-up whose Cognito step
 * failed) has no tokens to revoke: UserNotFoundException counts as done.
 */
export function createCognitoSessions(deps: {
  client: CognitoIdentityProviderClient;
  userPoolId: string | undefined;
}): SessionsDirectory {
  const poolId = (): string => {
    if (deps.userPoolId === undefined) throw new Error('USER_POOL_ID is not configured');
    return deps.userPoolId;
  };
  const tolerant = async (send: () => Promise<unknown>): Promise<void> => {
    try {
      await send();
    } catch (error) {
      if ((error as { name?: string }).name === 'UserNotFoundException') return;
      throw error;
    }
  };
  return {
    globalSignOut: (userId) =>
      tolerant(() =>
        deps.client.send(
          new AdminUserGlobalSignOutCommand({ UserPoolId: poolId(), Username: userId }),
        ),
      ),
    disableUser: (userId) =>
      tolerant(() =>
        deps.client.send(new AdminDisableUserCommand({ UserPoolId: poolId(), Username: userId })),
      ),
    enableUser: (userId) =>
      tolerant(() =>
        deps.client.send(new AdminEnableUserCommand({ UserPoolId: poolId(), Username: userId })),
      ),
  };
}
