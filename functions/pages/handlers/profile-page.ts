import { httpHandler } from '../../http';
import { pagesRoutes } from '../pages.routes';
import { profilePage } from '../profile-page';
import { pagesDeps } from '../pages.deps';

/** GET /api/pages/profile/{nick} (the CDN's answer for /<nick>) */
export const handler = httpHandler(pagesRoutes.profilePage, async ({ path }) =>
  profilePage(pagesDeps(), path.nick),
);
