import type { ListingStep, OfferingStatus, OfferingType } from '../../shared/schemas/offerings';

/**
 * The listing workflow's state machine (spec 000 §4 "validation of an offering", "listing
 * progress", "delisting"; issue 11 §2), pure: `transition(state, event, now)` answers the next
 * state, the effects to perform after the state is written (conditioned on its version), and the
 * workflow's next step. Every task of infra/workflows/listing.asl.json and every call that moves
 * an offering (confirm, cancel, support's decision, delist) goes through it, so a replayed task
 * finds its event already applied (`stale`) and repeats only idempotent effects.
 *
 *   creating ─reserved(all)──────────────► creating(listing) ─submit─► pending
 *      │  └─reserved(some, exhausted)────► confirm ─confirm─► creating(listing)
 *      │                                      └─cancel / timeout─► cancelled ─► release
 *      └─reserved(none, exhausted) / fail─► error ─► release
 *   pending ─decide(approve)─► pending(approved) ─publish─► validated ─end─► expired ─► release
 *           └decide(reject)──► pending(rejected) ─reject──► not_validated ─► release
 *   validated ─delist (no bids)─► delisting ─released─► delisted
 *   validated ─sold (copies paid for)─► validated (fewer left) │ sold (none left)
 *
 * Auctions (issue 13): publishing opens the lot and hands the offering to the auction-close
 * workflow (effect `auction_open`, next `done`); bids keep its counters in step (`bids`); at the
 * end the close marks it `closing` (winners being processed: off the market, no delisting), sells
 * the paid copies (`sold`) and finally applies `end`, which returns what is left to the seller.
 */
export interface ListingState {
  status: OfferingStatus;
  step: ListingStep;
  type: OfferingType;
  requested: number;
  reserved: number;
  /** Support's decision, recorded by the admin call and applied by the workflow. */
  decision: 'approve' | 'reject' | null;
  reason: string | null;
  bids: number;
  copies_left: number;
  error: string | null;
  /** Copies still to give back after the offering left the market (release step). */
  releasing: boolean;
  /** An auction whose bidding ended: its winners are being processed (spec: nobids). */
  closing: boolean;
  /** Auctions: the current price per copy the cards show (kept by the `bids` event). */
  highest_bid: number | null;
  /** The end; an auction's moves with soft close (the `bids` event). */
  end_at: string;
  /** The lot's log line the counters were taken at (-1: none): an older `bids` event is stale. */
  bids_index: number;
  published_at: string | null;
  ended_at: string | null;
  submitted_at: string | null;
}

export type ListingEvent =
  | { type: 'reserved'; reserved: number; exhausted: boolean }
  | { type: 'confirm' }
  | { type: 'cancel' }
  | { type: 'confirm_timeout' }
  | { type: 'submit' }
  | { type: 'decide'; decision: 'approve' | 'reject'; reason: string | null }
  | { type: 'validation_timeout' }
  | { type: 'apply_decision' }
  | { type: 'delist' }
  | { type: 'end' }
  | { type: 'released' }
  /** An order paid for `quantity` copies (issue 12): they left the offering with their buyer. */
  | { type: 'sold'; quantity: number }
  /** An auction's counters changed (a bid, a cancellation, an extension): kept for the cards. */
  | { type: 'bids'; index: number; bids: number; highest_bid: number | null; end_at: string }
  /** An auction's bidding ended: its winners are being processed. */
  | { type: 'close' }
  | { type: 'fail'; code: string };

/** What the workflow does next (the task's answer; the ASL's Choice reads it). */
export type NextStep =
  | 'reserve'
  | 'confirm'
  | 'submit'
  | 'await_validation'
  | 'publish'
  | 'wait_end'
  | 'release'
  | 'done';

export type ListingEffect =
  /** The seller's progress (live offering.progress). */
  | 'progress'
  /** The offering's status changed: live offering.updated to its seller. */
  | 'updated'
  /** Settle the waiting callback task with `next`. */
  | 'settle'
  /** Write its market entries (one per filter combination). */
  | 'market_put'
  /** Delete its market entries. */
  | 'market_delete'
  | 'notify_validated'
  | 'notify_rejected'
  | 'notify_invitees'
  | 'fan_out'
  /** An auction was published: open its lot and start its auction-close workflow. */
  | 'auction_open';

export type Transition =
  | { ok: true; state: ListingState; effects: ListingEffect[]; next: NextStep }
  /** The event does not apply in this state: `code` is the error a caller gets. */
  | { ok: false; code: string };

const refuse = (code: string): Transition => ({ ok: false, code });

function go(
  state: ListingState,
  changes: Partial<ListingState>,
  effects: ListingEffect[],
  next: NextStep,
): Transition {
  return { ok: true, state: { ...state, ...changes }, effects, next };
}

/** Whether the seller may delist now (spec 000 §4: on sale, or an auction with no bids). */
export function canDelist(
  state: Pick<ListingState, 'status' | 'type' | 'bids'> & { closing?: boolean },
): boolean {
  return (
    state.status === 'validated' &&
    state.closing !== true &&
    (state.type === 'fixed' || state.bids === 0)
  );
}

/** The step a task resumes at for a state (a replay or a restarted workflow asks). */
export function resumeStep(state: ListingState): NextStep {
  switch (state.status) {
    case 'creating':
      return state.step === 'listing' ? 'submit' : 'reserve';
    case 'confirm':
      return 'confirm';
    case 'pending':
      return state.decision === null ? 'await_validation' : 'publish';
    case 'validated':
      // An auction's end belongs to its auction-close workflow.
      return state.type === 'auction' ? 'done' : 'wait_end';
    default:
      return state.releasing ? 'release' : 'done';
  }
}

export function transition(state: ListingState, event: ListingEvent, now: Date): Transition {
  const at = now.toISOString();
  switch (event.type) {
    case 'reserved': {
      if (state.status !== 'creating' || state.step === 'listing') {
        return refuse('market.list.errors.copy_conflict');
      }
      const reserved = Math.min(state.requested, Math.max(state.reserved, event.reserved));
      if (reserved >= state.requested) {
        return go(state, { reserved, step: 'listing' }, ['progress'], 'submit');
      }
      if (!event.exhausted) {
        return go(state, { reserved, step: 'preparing' }, ['progress'], 'reserve');
      }
      if (reserved === 0) {
        return go(
          state,
          {
            reserved,
            status: 'error',
            step: 'error',
            error: 'market.list.errors.conditionals',
            releasing: true,
          },
          ['progress'],
          'release',
        );
      }
      return go(state, { reserved, status: 'confirm', step: 'confirm' }, ['progress'], 'confirm');
    }
    case 'confirm':
      if (state.status !== 'confirm') return refuse('market.list.errors.not_confirmable');
      return go(state, { status: 'creating', step: 'listing' }, ['progress', 'settle'], 'submit');
    case 'cancel':
    case 'confirm_timeout':
      if (state.status !== 'confirm') return refuse('market.list.errors.not_confirmable');
      return go(
        state,
        {
          status: 'cancelled',
          step: 'cancelled',
          error: 'market.list.errors.cancelled',
          releasing: true,
        },
        ['progress', 'settle'],
        'release',
      );
    case 'submit':
      if (state.status !== 'creating' || state.step !== 'listing') {
        return refuse('market.list.errors.generic');
      }
      return go(
        state,
        { status: 'pending', step: 'done', submitted_at: at, copies_left: state.reserved },
        ['progress', 'updated'],
        'await_validation',
      );
    case 'decide':
      if (state.status !== 'pending' || state.decision !== null) {
        return refuse('market.offering.errors.not_pending');
      }
      return go(state, { decision: event.decision, reason: event.reason }, ['settle'], 'publish');
    case 'validation_timeout':
      if (state.status !== 'pending' || state.decision !== null) {
        return refuse('market.offering.errors.not_pending');
      }
      return go(
        state,
        { decision: 'reject', reason: 'Support did not decide in time; please list it again.' },
        [],
        'publish',
      );
    case 'apply_decision':
      if (state.status !== 'pending' || state.decision === null) {
        return refuse('market.offering.errors.not_pending');
      }
      if (state.decision === 'approve') {
        const effects: ListingEffect[] = [
          'market_put',
          'updated',
          'notify_validated',
          'notify_invitees',
          'fan_out',
        ];
        if (state.type === 'auction') {
          // The lot first: bids may come as soon as the offering shows validated.
          return go(
            state,
            { status: 'validated', published_at: at },
            ['auction_open', ...effects],
            'done',
          );
        }
        return go(state, { status: 'validated', published_at: at }, effects, 'wait_end');
      }
      return go(
        state,
        { status: 'not_validated', ended_at: at, releasing: true },
        ['updated', 'notify_rejected'],
        'release',
      );
    case 'delist':
      if (state.status === 'delisting') return go(state, {}, ['market_delete'], 'release');
      if (state.status !== 'validated' || state.closing) {
        return refuse('market.offering.errors.not_delistable');
      }
      if (!canDelist(state)) return refuse('market.offering.errors.has_bids');
      return go(
        state,
        { status: 'delisting', ended_at: at, releasing: true },
        ['market_delete', 'updated'],
        'release',
      );
    case 'end':
      if (state.status !== 'validated') return go(state, {}, [], resumeStep(state));
      return go(
        state,
        {
          status: state.copies_left === 0 ? 'sold' : 'expired',
          ended_at: at,
          releasing: state.copies_left > 0,
          closing: false,
        },
        ['market_delete', 'updated'],
        state.copies_left > 0 ? 'release' : 'done',
      );
    case 'sold': {
      if (!Number.isInteger(event.quantity) || event.quantity < 1) {
        return refuse('market.buy.errors.quantity');
      }
      if (event.quantity > state.copies_left) return refuse('market.buy.errors.not_on_sale');
      const copiesLeft = state.copies_left - event.quantity;
      if (state.status !== 'validated') {
        // Booked before the offering ended or was delisted, paid after: only the count moves.
        return go(state, { copies_left: copiesLeft }, [], resumeStep(state));
      }
      if (copiesLeft === 0) {
        return go(
          state,
          { copies_left: 0, status: 'sold', ended_at: at, releasing: false, closing: false },
          ['market_delete', 'updated'],
          'done',
        );
      }
      if (state.closing) return go(state, { copies_left: copiesLeft }, ['updated'], 'done');
      return go(state, { copies_left: copiesLeft }, ['market_put', 'updated'], resumeStep(state));
    }
    case 'bids': {
      const changes = {
        bids: event.bids,
        highest_bid: event.highest_bid,
        end_at: event.end_at,
        bids_index: event.index,
      };
      if (state.type !== 'auction') return refuse('market.bid.errors.not_auction');
      // Counters taken before the ones already kept (a late follow-up) change nothing.
      if (event.index <= state.bids_index) return go(state, {}, [], resumeStep(state));
      if (state.status !== 'validated' || state.closing) {
        return go(state, changes, [], resumeStep(state));
      }
      return go(state, changes, ['market_put'], 'done');
    }
    case 'close':
      if (state.type !== 'auction') return refuse('market.bid.errors.not_auction');
      if (state.status !== 'validated') return refuse('market.buy.errors.not_on_sale');
      if (state.closing) return go(state, {}, ['market_delete'], 'done');
      return go(state, { closing: true }, ['market_delete', 'updated'], 'done');
    case 'released':
      if (!state.releasing) return refuse('market.list.errors.rejecting');
      return go(
        state,
        { releasing: false, status: state.status === 'delisting' ? 'delisted' : state.status },
        state.status === 'delisting' ? ['updated'] : [],
        'done',
      );
    case 'fail': {
      if (state.status === 'creating' || state.status === 'confirm') {
        return go(
          state,
          { status: 'error', step: 'error', error: event.code, releasing: true },
          ['progress'],
          'release',
        );
      }
      return refuse(event.code);
    }
  }
}
