import { httpHandler } from '../../http';
import { itemsRoutes } from '../items.routes';
import { queriesDeps } from '../items.deps';
import { getHistory } from '../queries';

/** GET /api/users/{id}/token/gethistoric/{nftuniqueid} */
export const handler = httpHandler(itemsRoutes.getHistoric, async ({ path }) =>
  getHistory(queriesDeps(), { nftuniqueid: path.nftuniqueid }),
);
