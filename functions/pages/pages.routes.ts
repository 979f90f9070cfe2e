import * as z from 'zod';
import { route } from '../core/route';
import { nickPathSchema } from '../../shared/schemas/profiles';

/**
 * The pages domain's calls: web pages rendered on request. The CDN sends a public profile's path
 * (`/<nick>`) here (infra/lib/stacks/web-stack.ts; the local gateway the same), so its first
 * visit gets the profile's content and its data in the HTML.
 */
export const pagesRoutes = {
  profilePage: route({
    method: 'GET',
    path: '/api/pages/profile/{nick}',
    handler: 'pages/handlers/profile-page',
    auth: 'public',
    group: 'accounts',
    summary:
      "The public profile's page as HTML, as a guest sees it, with its data for the app (what the CDN answers for /<nick>); an unknown nick 404 with the profile's frame; the frame, uncached, when the page cannot be rendered",
    tags: ['pages'],
    request: { path: nickPathSchema },
    response: z.string(),
    html: true,
    // React's server render of the whole app: more memory is more CPU for it.
    memoryMb: 1024,
  }),
} as const;
