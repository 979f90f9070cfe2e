import { httpHandler } from '../../core/http';
import { historyPathSchema } from '../../../shared/schemas/items';
import { queriesDeps } from '../items.deps';
import { getHistory } from '../queries';

/** GET /api/users/{id}/token/gethistoric/{nftuniqueid} */
export const handler = httpHandler({ auth: 'public', path: historyPathSchema }, async ({ path }) =>
  getHistory(queriesDeps(), { nftuniqueid: path.nftuniqueid }),
);
