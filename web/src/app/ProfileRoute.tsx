import { PublicItemsSection } from '../features/items/components/PublicItemsSection';
import { ProfilePage } from '../features/profiles/components/ProfilePage';

/**
 * `/:usernick`: the public profile with the user's public items (composed across features). A
 * module of its own, so the profile's chunk does not carry the /account pages.
 */
export function ProfileRoute() {
  return <ProfilePage renderItems={(nick) => <PublicItemsSection nick={nick} />} />;
}
