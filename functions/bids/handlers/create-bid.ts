import { callerId } from '../../core/auth';
import { invocationBudget } from '../../core/clock';
import { Reply } from '../../core/http';
import { httpHandler } from '../../http';
import { bidsDeps } from '../bids.deps';
import { bidsRoutes } from '../bids.routes';
import { createBid } from '../place';

/** POST /api/users/{id}/bid/create. */
export const handler = httpHandler(
  bidsRoutes.createBid,
  async ({ auth, body, now, remainingMs }) => {
    const view = await createBid(
      bidsDeps(),
      {
        callerId: callerId(auth),
        offeringId: body.offeringid,
        bidprice: body.bidprice,
        maxbid: body.maxbid,
        currency: body.currency,
        quantity: body.quantity,
        payment_method: body.payment_method,
        postaladdress: body.postaladdress,
      },
      now,
      invocationBudget(remainingMs),
    );
    return new Reply(201, view);
  },
);
