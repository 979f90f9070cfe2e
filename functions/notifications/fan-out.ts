import * as z from 'zod';
import { logger } from '../core/logger';
import {
  executionName,
  startWorkflow,
  type StartedWorkflow,
  type WorkflowStarter,
} from '../core/workflows';
import { notificationPayloadSchema } from '../../shared/schemas/notifications';
import type { NotifyInput, NotifyResult } from './notify';

/**
 * Fan-out of a new offering to the seller's followers (`market_newoffering`), off the request
 * path: publishing calls `startFollowerFanOut` (one StartExecution, whatever the number of
 * followers) and the Step Functions workflow `infra/workflows/follower-fanout.asl.json` loops
 * over pages of followers, one task per page (`notifyFollowersPage`): read a page of 1,000 ids,
 * notify each (25 at a time), hand back the cursor. notify() is idempotent per follower and
 * offering (event key `newoffering:<offeringId>`), so a retried page, a retried start or a
 * second execution for the same offering notifies nobody twice.
 *
 * Step Functions keeps at most 25,000 events per execution; a page costs 7 (task entered,
 * Lambda scheduled, started, succeeded, task exited, choice entered, exited) and a retry 3 more.
 * After PAGES_PER_EXECUTION pages (14,000 events, 2 M followers) the task starts a continuation
 * execution (same workflow, name `…-c<n>`, the cursor and the running totals as its input) and
 * ends its own loop. docs/data-model.md "Fan-out to followers" gives the costs.
 */
export const FOLLOWER_FANOUT_WORKFLOW = 'follower-fanout';
/** Followers read and notified per task (one gsi2 Query). */
export const FAN_OUT_PAGE_SIZE = 1000;
/** notify() calls in flight per task. */
export const FAN_OUT_CONCURRENCY = 25;
/** Pages per execution before a continuation (history: 7 events a page, limit 25,000). */
export const PAGES_PER_EXECUTION = 2000;
/** The activity and the event key of a new offering, per follower. */
export const NEW_OFFERING_ACTIVITY = 'market_newoffering';
export const newOfferingEventKey = (offeringId: string): string => `newoffering:${offeringId}`;

export const fanOutInputSchema = z
  .object({
    sellerId: z.string().min(1),
    offeringId: z.string().min(1),
    /** When the offering was published (ISO 8601); kept in the execution's input. */
    publishedAt: z.iso.datetime({ offset: true }),
    /** What each notification says: itemName, itemmarket, tokenImage, offeringId, sourcenick… */
    payload: notificationPayloadSchema,
  })
  .strict();
export type FanOutInput = z.infer<typeof fanOutInputSchema>;

/** The workflow's state: the input, where the loop is, and what it did so far. */
export const fanOutStateSchema = fanOutInputSchema
  .extend({
    /** The next page's cursor; absent at the start, null after the last page. */
    cursor: z.string().min(1).nullable().optional(),
    /** Followers handled so far (notified now or before), across continuations. */
    notified: z.number().int().nonnegative().optional(),
    /** Notifications created so far (the others were already there). */
    created: z.number().int().nonnegative().optional(),
    /** Pages done by this execution. */
    pages: z.number().int().nonnegative().optional(),
    /** 0 for the first execution, n for the n-th continuation. */
    segment: z.number().int().nonnegative().optional(),
    /** Tuning (tests, operators): followers per page and pages per execution. */
    pageSize: z.number().int().min(1).max(FAN_OUT_PAGE_SIZE).optional(),
    pagesPerExecution: z.number().int().min(1).max(PAGES_PER_EXECUTION).optional(),
    /** Set by the page that handed the rest to a continuation: its execution ARN. */
    continuedAs: z.string().optional(),
  })
  .strict();
export type FanOutState = z.infer<typeof fanOutStateSchema>;

export interface FanOutDeps {
  /** One page of the seller's followers (follows' listFollowerIds). */
  followers(
    sellerId: string,
    page: { cursor: string | undefined; limit: number },
  ): Promise<{ ids: string[]; nextCursor: string | null }>;
  notify(input: NotifyInput, now: Date): Promise<NotifyResult>;
  startWorkflow: WorkflowStarter;
  concurrency?: number;
}

/** The task's input was not a fan-out state: not retried (the ASL's first retrier). */
export class FanOutInputError extends Error {
  override name = 'FanOut.InvalidInput';
}

/** Some notifications of a page failed: the task fails and Step Functions retries the page. */
export class FanOutPageError extends Error {
  override name = 'FanOut.PageIncomplete';
}

/** The execution name of an offering's fan-out (segment 0) or of its n-th continuation. */
export function fanOutExecutionName(offeringId: string, segment = 0): string {
  return segment === 0
    ? executionName('newoffering', offeringId)
    : executionName('newoffering', offeringId, `c${segment}`);
}

/**
 * Starts the fan-out of a published offering to the seller's followers and returns at once (one
 * StartExecution; nothing reads the followers here). Idempotent per offering: the execution is
 * named after it, so publishing the same offering again starts nothing (`started: false`).
 */
export async function startFollowerFanOut(
  input: FanOutInput,
  deps: { startWorkflow: WorkflowStarter } = { startWorkflow },
): Promise<StartedWorkflow> {
  const parsed = fanOutInputSchema.parse(input);
  return deps.startWorkflow({
    workflow: FOLLOWER_FANOUT_WORKFLOW,
    name: fanOutExecutionName(parsed.offeringId),
    input: parsed,
  });
}

/** Runs `run` over `items`, at most `limit` at a time; answers the failures (all items run). */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  run: (item: T) => Promise<void>,
): Promise<unknown[]> {
  const failures: unknown[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      try {
        await run(item);
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return failures;
}

/**
 * The workflow's task: notifies one page of followers and answers the next state (`cursor` null
 * when the loop is done, here or because a continuation took the rest over). Throws
 * FanOutPageError when a notification failed, after trying every follower of the page: the retry
 * redoes the page, and notify() skips those already notified.
 */
export async function notifyFollowersPage(
  deps: FanOutDeps,
  event: unknown,
  now: Date,
): Promise<FanOutState> {
  const parsed = fanOutStateSchema.safeParse(event);
  if (!parsed.success) {
    throw new FanOutInputError(`not a fan-out state: ${parsed.error.message}`);
  }
  const state = parsed.data;
  if (state.cursor === null) return state;
  const pageSize = state.pageSize ?? FAN_OUT_PAGE_SIZE;
  const page = await deps.followers(state.sellerId, { cursor: state.cursor, limit: pageSize });
  const eventKey = newOfferingEventKey(state.offeringId);
  let created = 0;
  let notified = 0;
  const failures = await eachLimited(
    page.ids,
    deps.concurrency ?? FAN_OUT_CONCURRENCY,
    async (followerId) => {
      if (followerId === state.sellerId) return;
      const result = await deps.notify(
        {
          to: followerId,
          activity: NEW_OFFERING_ACTIVITY,
          eventKey,
          sourceid: state.sellerId,
          payload: state.payload,
        },
        now,
      );
      notified += 1;
      if (result.created) created += 1;
    },
  );
  if (failures.length > 0) {
    const first = failures[0];
    throw new FanOutPageError(
      `${failures.length} of ${page.ids.length} notifications failed; first: ` +
        (first instanceof Error ? `${first.name}: ${first.message}` : String(first)),
    );
  }
  const next: FanOutState = {
    ...state,
    cursor: page.nextCursor,
    notified: (state.notified ?? 0) + notified,
    created: (state.created ?? 0) + created,
    pages: (state.pages ?? 0) + 1,
    segment: state.segment ?? 0,
  };
  logger.info('fan-out page done', {
    offeringId: state.offeringId,
    sellerId: state.sellerId,
    segment: next.segment,
    page: next.pages,
    followers: page.ids.length,
    created,
    notified: next.notified,
  });
  const pagesPerExecution = state.pagesPerExecution ?? PAGES_PER_EXECUTION;
  if (next.cursor === null || (next.pages ?? 0) < pagesPerExecution) return next;

  // This execution's history is full enough: a new execution takes the rest over.
  const { continuedAs: _previous, ...carried } = next;
  const segment = (next.segment ?? 0) + 1;
  const continuation = await deps.startWorkflow({
    workflow: FOLLOWER_FANOUT_WORKFLOW,
    name: fanOutExecutionName(state.offeringId, segment),
    input: { ...carried, pages: 0, segment },
  });
  return { ...next, cursor: null, continuedAs: continuation.executionArn };
}
