import { PAGE_SIZE } from '../../../shared/constants/limits';
import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { bidsDeps } from '../bids.deps';
import { bidsRoutes } from '../bids.routes';
import { getMyBids } from '../queries';

/** POST /api/users/{id}/offering/getmybettedofferings. */
export const handler = httpHandler(bidsRoutes.myBids, async ({ auth, body, now }) =>
  getMyBids(
    bidsDeps(),
    { callerId: callerId(auth), status: body.status, last: body.last, limit: PAGE_SIZE.small },
    now,
  ),
);
