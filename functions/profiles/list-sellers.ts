import type { ListSellersQuery, SellerPage, SellerSummary } from '../../shared/schemas/profiles';
import type { ProfileRecord, ProfilesRepo } from './profiles.repo';

/** The name a directory shows: company name for companies, name and surname for individuals. */
export function displayName(profile: ProfileRecord): string {
  if (profile.user_option === 'company' && profile.entity_name) return profile.entity_name;
  return [profile.name, profile.surname].filter((part) => part !== null && part !== '').join(' ');
}

export function imageUrl(imagesBaseUrl: string, key: string | null): string | null {
  if (key === null || key === '') return null;
  return `${imagesBaseUrl.replace(/\/$/, '')}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

export function toSellerSummary(profile: ProfileRecord, imagesBaseUrl: string): SellerSummary {
  return {
    id: profile.id,
    nick: profile.nick,
    name: displayName(profile),
    user_option: profile.user_option,
    title: profile.user_option === 'company' ? profile.slogan : profile.title,
    profile_image: imageUrl(imagesBaseUrl, profile.profile_image),
    followers_counter: profile.followers_counter,
    is_verified: profile.is_verified,
  };
}

/**
 * The sellers directory (spec 001 §7 `users/sellers`): only sellers, by followers_counter
 * descending, pages of at most 50 with an opaque cursor.
 */
export async function listSellers(
  deps: { repo: ProfilesRepo; imagesBaseUrl: string },
  query: ListSellersQuery,
): Promise<SellerPage> {
  const page = await deps.repo.listSellers({ limit: query.limit, cursor: query.cursor });
  return {
    items: page.items.map((profile) => toSellerSummary(profile, deps.imagesBaseUrl)),
    nextCursor: page.nextCursor,
  };
}
