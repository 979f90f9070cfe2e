import * as z from 'zod';
import { notify, notifyDeps } from '../../functions/notifications/index';
import {
  NOTIFICATION_ACTIVITIES,
  notificationPayloadSchema,
} from '../../shared/schemas/notifications';

/**
 * `POST /dev/notifications` on the twin (never in production): emits notifications the way the
 * features that own them will (listing, checkout, auctions), through the same notify(), so the
 * bell, the dialog, the live channel and the e-mails can be tried before those features exist.
 * Body: `{ userId, activity, payload?, sourceid?, count? (1–500), eventKey? }`; each of `count`
 * notifications gets its own event key (`eventKey` + index), so repeating a body with an
 * `eventKey` is idempotent like a retried workflow task.
 */
const bodySchema = z.object({
  userId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  activity: z.enum(NOTIFICATION_ACTIVITIES),
  payload: notificationPayloadSchema.optional(),
  sourceid: z.string().max(64).optional(),
  count: z.number().int().min(1).max(500).optional(),
  eventKey: z.string().min(1).max(200).optional(),
});

const CONCURRENCY = 8;

export async function devNotify(body: unknown): Promise<{ created: number; ids: string[] }> {
  const input = bodySchema.parse(body);
  const count = input.count ?? 1;
  const prefix = input.eventKey ?? `dev:${Date.now()}:${Math.random().toString(36).slice(2)}`;
  const deps = notifyDeps();
  const ids: string[] = new Array<string>(count);
  let created = 0;
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < count; index = next++) {
      const result = await notify(
        deps,
        {
          to: input.userId,
          activity: input.activity,
          eventKey: count === 1 ? prefix : `${prefix}:${index}`,
          ...(input.sourceid === undefined ? {} : { sourceid: input.sourceid }),
          ...(input.payload === undefined ? {} : { payload: input.payload }),
        },
        new Date(),
      );
      ids[index] = result.id;
      if (result.created) created += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, worker));
  return { created, ids };
}
