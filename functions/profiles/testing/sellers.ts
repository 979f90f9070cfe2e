import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDocumentClient } from '../../core/clients';
import { readEnv } from '../../core/env';
import { newId } from '../../core/ids';
import { createProfilesRepo, profileItem, type ProfileRecord } from '../profiles.repo';
import { profileItemKey } from '../profiles.tx';

/**
 * For integration tests: seller profiles written straight to the twin's table (sellers come from
 * listings, which do not exist yet). Only the profile: no account, so no nick guard.
 */
export function sellerProfile(nick: string, followers: number, name = nick): ProfileRecord {
  return {
    id: newId(),
    nick,
    name,
    surname: 'Seller',
    entity_name: null,
    user_option: 'individual',
    title: null,
    slogan: null,
    summary: null,
    profile_image: null,
    header_image: null,
    followers_counter: followers,
    is_verified: false,
    is_seller: true,
    created_at: new Date().toISOString(),
  };
}

export async function putSellers(...sellers: ProfileRecord[]): Promise<void> {
  const env = readEnv();
  const repo = createProfilesRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName });
  await Promise.all(sellers.map((profile) => repo.putProfile(profile)));
}

/** A user's seller onboarding done, as the payments webhook leaves it (status complete). */
export async function markOnboarded(userId: string): Promise<void> {
  const env = readEnv();
  await dynamoDocumentClient(env).send(
    new UpdateCommand({
      TableName: env.tableName,
      Key: profileItemKey(userId),
      UpdateExpression: 'SET onboarding_status = :complete, is_seller = :yes',
      ExpressionAttributeValues: { ':complete': 'complete', ':yes': true },
    }),
  );
}

/** For the dev seed (infra/local/seed.ts): a seller's profile item, onboarding complete. */
export function onboardedSellerProfileItem(profile: ProfileRecord): Record<string, unknown> {
  return profileItem({ ...profile, is_seller: true, onboarding_status: 'complete' });
}
