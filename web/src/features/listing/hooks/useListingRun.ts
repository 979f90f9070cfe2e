import { useQueryClient } from '@tanstack/react-query';
import { TIMINGS } from '@shared/constants/limits';
import type { ListingContract, ListingProgress } from '@shared/schemas/offerings';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, newIdempotencyKey } from '../../../lib/api';
import { useErrorText } from '../../../lib/errors';
import { useLiveMessages } from '../../../lib/liveChannel';
import {
  confirmListing,
  createOffering,
  listingStatus,
  offeringKeys,
} from '../../../lib/offerings';
import { createCollection, uploadCollectionImage } from '../api';
import { contractOf, type ListFormOutput } from '../form';

/** The generic listing failure (spec 000 §8 "List: generic"). */
export const LISTING_GENERIC = 'market.list.errors.generic';

/**
 * Where the submission is:
 * - `collection`: the new collection's image is uploading, then the collection is created;
 * - `running`: offering/create answered (or is being sent); its progress follows;
 * - `confirm`: fewer copies were reserved than asked (the confirm-listing modal);
 * - `error`: shown in the progress dialog (`retry`: the same submission may be sent again);
 * - `cancelled`: the seller cancelled at the confirm step;
 * - `done`: submitted for support's validation.
 */
export type ListingRun =
  | { phase: 'idle' }
  | { phase: 'collection'; step: 'uploading' | 'creating' }
  | { phase: 'running'; progress: ListingProgress | null }
  | { phase: 'confirm'; progress: ListingProgress; busy: boolean; problem: string | null }
  | { phase: 'error'; message: string; retry: boolean }
  | { phase: 'cancelled' }
  | { phase: 'done'; progress: ListingProgress };

/** One submission: its Idempotency-Key (kept on retry) and the collection it already created. */
interface Attempt {
  key: string;
  output: ListFormOutput;
  collectionId: string | null;
}

export interface ListingRunOptions {
  userId: string;
  /**
   * Field errors to show on the form (paths of the form: `price`, `new_collection.name`); the
   * submission stops and the form is shown again. `message` is a text for the form's alert.
   */
  onFieldErrors: (fields: Record<string, string>, message: string | null) => void;
}

/** A failure worth sending again as is: the network, the server or a busy resource. */
function retryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status >= 500 || error.code === 'unavailable';
}

/** Collection call field paths (`collection.title`) → the form's (`new_collection.name`). */
const COLLECTION_FIELDS: Record<string, string> = {
  'collection.title': 'new_collection.name',
  'collection.symbol': 'new_collection.symbol',
  'collection.image': 'new_collection.image',
};

/**
 * Submits a listing and follows it (spec 000 §4 listing progress): creates the new collection
 * first when one is asked for, sends offering/create with one Idempotency-Key per submission (the
 * same on retry), then follows the live `offering.progress` events of that offering and polls
 * create/status every 50 s as a fallback, tolerating at most 10 consecutive 'not found' answers.
 */
export function useListingRun({ userId, onFieldErrors }: ListingRunOptions) {
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [run, setRun] = useState<ListingRun>({ phase: 'idle' });
  /** The offering being followed (state: the polling effect depends on it). */
  const [following, setFollowing] = useState<string | null>(null);
  const attempt = useRef<Attempt | null>(null);
  const followed = useRef<string | null>(null);
  const notFound = useRef(0);
  const fieldErrors = useRef(onFieldErrors);
  useEffect(() => {
    fieldErrors.current = onFieldErrors;
  }, [onFieldErrors]);

  const codeText = useCallback(
    (code: string) => errorText(new ApiError({ code, status: 200 })),
    [errorText],
  );

  /** Stops following; `clear` also forgets the submission (the next one gets a new key). */
  const stop = useCallback((clear: boolean) => {
    followed.current = null;
    setFollowing(null);
    if (clear) attempt.current = null;
  }, []);

  const apply = useCallback(
    (progress: ListingProgress) => {
      if (followed.current === null || progress.offeringId !== followed.current) return;
      switch (progress.step) {
        case 'confirm':
          setRun((current) =>
            current.phase === 'confirm'
              ? { ...current, progress }
              : { phase: 'confirm', progress, busy: false, problem: null },
          );
          return;
        case 'done':
          stop(true);
          setRun({ phase: 'done', progress });
          return;
        case 'error':
          // An error clears the entry (spec 000 §4).
          stop(true);
          setRun({
            phase: 'error',
            message: codeText(progress.error ?? LISTING_GENERIC),
            retry: false,
          });
          return;
        case 'cancelled':
          stop(true);
          setRun({ phase: 'cancelled' });
          return;
        default:
          setRun({ phase: 'running', progress });
      }
    },
    [codeText, stop],
  );

  const follow = useCallback(
    (progress: ListingProgress) => {
      followed.current = progress.offeringId;
      notFound.current = 0;
      setFollowing(progress.offeringId);
      apply(progress);
    },
    [apply],
  );

  const failCollection = useCallback(
    (error: unknown) => {
      if (retryable(error)) {
        setRun({ phase: 'error', message: errorText(error), retry: true });
        return;
      }
      const fields: Record<string, string> = {};
      if (error instanceof ApiError) {
        for (const [path, code] of Object.entries(error.fields ?? {})) {
          const field = COLLECTION_FIELDS[path];
          if (field) fields[field] = code;
        }
        if (error.code === 'market.list.errors.collection_exists') {
          fields['new_collection.name'] = error.code;
        } else if (Object.keys(fields).length === 0) {
          fields['new_collection.image'] = 'market.list.errors.collection_image';
        }
      }
      attempt.current = null;
      setRun({ phase: 'idle' });
      fieldErrors.current(fields, null);
    },
    [errorText],
  );

  const failCreate = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.fields && Object.keys(error.fields).length > 0) {
        const fields = Object.fromEntries(
          Object.entries(error.fields).map(([path, code]) => [
            path.replace(/^offering\./, ''),
            code,
          ]),
        );
        attempt.current = null;
        setRun({ phase: 'idle' });
        fieldErrors.current(fields, errorText(error));
        return;
      }
      const retry = retryable(error);
      if (!retry) attempt.current = null;
      setRun({ phase: 'error', message: errorText(error), retry });
    },
    [errorText],
  );

  const execute = useCallback(async () => {
    const current = attempt.current;
    if (!current) return;
    const wanted = current.output.new_collection;
    if (wanted && current.collectionId === null) {
      try {
        setRun({ phase: 'collection', step: 'uploading' });
        const image = await uploadCollectionImage(userId, wanted.image);
        setRun({ phase: 'collection', step: 'creating' });
        const created = await createCollection(userId, {
          title: wanted.name,
          symbol: wanted.symbol,
          image,
        });
        current.collectionId = created.id;
        void queryClient.invalidateQueries({ queryKey: offeringKeys.collections(userId) });
      } catch (error) {
        failCollection(error);
        return;
      }
    }
    setRun({ phase: 'running', progress: null });
    let progress: ListingProgress;
    try {
      const contract: ListingContract = contractOf(current.output, current.collectionId);
      progress = await createOffering(userId, contract, current.key);
    } catch (error) {
      failCreate(error);
      return;
    }
    follow(progress);
  }, [userId, queryClient, failCollection, failCreate, follow]);

  /** A new submission (a new Idempotency-Key). */
  const start = useCallback(
    (output: ListFormOutput) => {
      attempt.current = { key: newIdempotencyKey(), output, collectionId: null };
      void execute();
    },
    [execute],
  );

  /** The failed submission again, with the same key (and the collection already created). */
  const retry = useCallback(() => void execute(), [execute]);

  const close = useCallback(() => setRun({ phase: 'idle' }), []);

  const decide = useCallback(
    (decision: 'confirm' | 'cancel') => {
      const offeringId = followed.current;
      if (offeringId === null) return;
      setRun((current) =>
        current.phase === 'confirm' ? { ...current, busy: true, problem: null } : current,
      );
      confirmListing(userId, offeringId, decision)
        .then((progress) => {
          if (decision === 'cancel') {
            stop(true);
            setRun({ phase: 'cancelled' });
          } else {
            apply(progress);
          }
        })
        .catch((error: unknown) =>
          setRun((current) =>
            current.phase === 'confirm'
              ? { ...current, busy: false, problem: errorText(error) }
              : current,
          ),
        );
    },
    [userId, apply, stop, errorText],
  );

  // The live channel moves the progress while the listing runs (open while the form is shown, so
  // the first events are not missed).
  useLiveMessages(
    useCallback(
      (message) => {
        if (message.type !== 'offering.progress') return;
        const { offeringId, item_id, step, done, total, percent, error } = message;
        apply({ offeringId, item_id, step, done, total, percent, error });
      },
      [apply],
    ),
  );

  // The fallback: create/status every 50 s; 'not found' is tolerated 10 times in a row.
  useEffect(() => {
    if (following === null) return undefined;
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      listingStatus(userId, following)
        .then((progress) => {
          notFound.current = 0;
          apply(progress);
        })
        .catch((error: unknown) => {
          if (!(error instanceof ApiError) || error.status !== 404) return;
          if (followed.current !== following) return;
          notFound.current += 1;
          if (notFound.current > TIMINGS.offeringStatusMaxNotFound) {
            stop(true);
            setRun({ phase: 'error', message: codeText(LISTING_GENERIC), retry: false });
          }
        })
        .finally(() => {
          busy = false;
        });
    }, TIMINGS.offeringStatusPollMs);
    return () => clearInterval(timer);
  }, [following, userId, apply, stop, codeText]);

  const active = run.phase === 'collection' || run.phase === 'running' || run.phase === 'confirm';
  return {
    run,
    active,
    start,
    retry,
    close,
    confirm: () => decide('confirm'),
    cancel: () => decide('cancel'),
  };
}
