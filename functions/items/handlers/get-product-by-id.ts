import { accessTokenVerifier } from '../../core/access-token';
import { httpHandler } from '../../http';
import { itemsRoutes } from '../items.routes';
import { type HttpEvent } from '../../core/http';
import { queriesDeps } from '../items.deps';
import { getProductById } from '../queries';

/**
 * A public route: the optional bearer token is verified here (as the JWT authorizer would) only to
 * tell whether the caller may download the attached file; a missing or bad token is a guest.
 */
async function callerOf(event: HttpEvent): Promise<string | null> {
  const header = event.headers?.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (match === null) return null;
  try {
    return (await accessTokenVerifier()(match[1] as string)).userId;
  } catch {
    return null;
  }
}

/** POST /api/users/{id}/token/getproductbyid/{itemId} */
export const handler = httpHandler(itemsRoutes.getProductById, async ({ path, event }) =>
  getProductById(queriesDeps(), { itemId: path.itemId, callerId: await callerOf(event) }),
);
