import { DomainError } from '../../core/errors';
import { httpHandler } from '../../http';
import { systemRoutes } from '../system.routes';

/** ANY /api/{proxy+}: no call matches the method and path (404 whatever the body). */
export const handler = httpHandler(
  systemRoutes.notFound,
  async ({ event }) => {
    throw new DomainError('not_found', {
      message: `No API call matches ${event.requestContext.http.method} ${event.rawPath}.`,
    });
  },
  { ignoreBody: true },
);
