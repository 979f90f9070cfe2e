import { httpHandler } from '../../http';
import { addInvitations } from '../manage';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';

/** POST /api/users/{id}/offering/add-invitations/{offeringId} {invitedIds} */
export const handler = httpHandler(offeringsRoutes.addInvitations, ({ path, body }) =>
  addInvitations(offeringsDeps(), path.id, path.offeringId, body.invitedIds),
);
