/**
 * Payouts of connected accounts, as Stripe's automatic payouts make them: the account's available
 * balance leaves for its bank account (`payout.created`, then `payout.paid`), or the bank refuses
 * it (`payout.failed` with a `failure_code`, and the money returns to the balance with a
 * `payout_failure` balance transaction). Stripe pays out on the account's schedule; in the twin a
 * test decides when (`POST /dev/accounts/{acct}/payout`). The product reads them with the
 * `Stripe-Account` header (`GET /v1/payouts`, `GET /v1/payouts/{id}`).
 */
import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import type { Ledger, LedgerState } from './ledger';
import { stripeId, unix } from './objects';
import {
  createdFilter,
  found,
  list,
  str,
  StripeError,
  type ApiRoute,
  type RequestRef,
} from './params';

export interface PayoutRecord {
  /** The connected account that was paid out. */
  account: string;
  payout: Stripe.Payout;
}

export interface PayoutState {
  payouts: Record<string, PayoutRecord>;
}

/** Stripe's messages for the failure codes a test can ask for. */
export const PAYOUT_FAILURES: Record<string, string> = {
  account_closed: 'The bank account has been closed.',
  account_frozen: 'The bank account has been frozen.',
  no_account: 'The bank account details on file are probably incorrect. No bank account could be located with those details.',
  insufficient_funds: 'Your Stripe account has insufficient funds to cover the payout.',
  could_not_process: 'The bank could not process this payout.',
}; // prettier-ignore

export interface PayoutContext {
  state: PayoutState & LedgerState & { accounts: Record<string, Stripe.Account> };
  now: () => Date;
  ledger: Ledger;
  emit: (
    type: string,
    object: { id?: string; object?: string },
    request: RequestRef,
    previousAttributes?: Record<string, unknown>,
    account?: string,
  ) => void;
}

export interface Payouts {
  routes: ApiRoute[];
  /**
   * Pays out the account's whole available balance, one payout per currency that has any; with
   * `failureCode`, the bank refuses each and the money comes back.
   */
  payOut(account: string, failureCode?: string): Stripe.Payout[];
}

const NO_REQUEST: RequestRef = { id: null, idempotency_key: null };

/** The account's bank account (`ba_…`), the same for every payout of that account. */
const bankAccountOf = (account: string) =>
  `ba_${createHash('sha256').update(account).digest('base64url').replace(/[-_]/g, '').slice(0, 24)}`;

export function payoutRoutes(context: PayoutContext): Payouts {
  const { state, now, ledger } = context;

  function payOut(account: string, failureCode?: string): Stripe.Payout[] {
    const connected = state.accounts[account];
    if (!connected) {
      throw new StripeError(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such account: '${account}'`,
        param: 'account',
      });
    }
    if (!connected.payouts_enabled) {
      throw new StripeError(400, {
        type: 'invalid_request_error',
        message: `Payouts are not enabled on account ${account} (its onboarding is not complete).`,
        param: 'account',
      });
    }
    if (failureCode !== undefined && PAYOUT_FAILURES[failureCode] === undefined) {
      throw new StripeError(400, {
        type: 'invalid_request_error',
        message: `Unknown failure code ${failureCode}: one of ${Object.keys(PAYOUT_FAILURES).join(', ')}.`,
        param: 'fail',
      });
    }
    const made: Stripe.Payout[] = [];
    for (const [currency, amounts] of Object.entries(state.balances[account] ?? {})) {
      if (amounts.available <= 0) continue;
      const amount = amounts.available;
      const id = stripeId('po');
      const created = unix(now());
      const paid = ledger.record(account, {
        amount: -amount,
        currency,
        type: 'payout',
        reportingCategory: 'payout',
        source: id,
        description: 'STRIPE PAYOUT',
      });
      ledger.paidOut(account, currency, id);
      const payout = {
        id,
        object: 'payout',
        amount,
        application_fee: null,
        application_fee_amount: null,
        // Stripe's standard payouts arrive in about two business days.
        arrival_date: created + 2 * 86_400,
        automatic: true,
        balance_transaction: paid.id,
        created,
        currency,
        description: 'STRIPE PAYOUT',
        destination: bankAccountOf(account),
        failure_balance_transaction: null,
        failure_code: null,
        failure_message: null,
        livemode: false,
        metadata: {},
        method: 'standard',
        original_payout: null,
        payout_method: null,
        reconciliation_status: 'completed',
        reversed_by: null,
        source_type: 'card',
        statement_descriptor: null,
        status: 'pending',
        trace_id: { status: 'pending', value: null },
        type: 'bank_account',
      } as unknown as Stripe.Payout;
      state.payouts[id] = { account, payout };
      context.emit('payout.created', payout, NO_REQUEST, undefined, account);
      let final: Stripe.Payout;
      if (failureCode === undefined) {
        final = {
          ...payout,
          status: 'paid',
          trace_id: { status: 'supported', value: stripeId('x', 12).slice(2) },
        } as Stripe.Payout;
        state.payouts[id] = { account, payout: final };
        context.emit('payout.paid', final, NO_REQUEST, { status: 'pending' }, account);
      } else {
        const returned = ledger.record(account, {
          amount,
          currency,
          type: 'payout_failure',
          reportingCategory: 'payout_reversal',
          source: id,
          description: `Payout failure (${failureCode})`,
        });
        final = {
          ...payout,
          status: 'failed',
          failure_balance_transaction: returned.id,
          failure_code: failureCode,
          failure_message: PAYOUT_FAILURES[failureCode] ?? null,
          trace_id: { status: 'unsupported', value: null },
        } as Stripe.Payout;
        state.payouts[id] = { account, payout: final };
        context.emit(
          'payout.failed',
          final,
          NO_REQUEST,
          { status: 'pending', failure_code: null, failure_message: null },
          account,
        );
      }
      made.push(final);
    }
    return made;
  }

  /** The payouts of the account the request acts as (`Stripe-Account`), newest first. */
  const payoutsOf = (account: string | undefined) =>
    Object.values(state.payouts)
      .filter((record) => record.account === (account ?? 'platform'))
      .map((record) => record.payout)
      .reverse();

  const routes: ApiRoute[] = [
    [
      'GET',
      /^\/v1\/payouts$/,
      ({ params, account }) => {
        const status = str(params, 'status');
        const destination = str(params, 'destination');
        const created = createdFilter(params);
        const arrival = createdFilter(params, 'arrival_date');
        const payouts = payoutsOf(account).filter(
          (payout) =>
            (status === undefined || payout.status === status) &&
            (destination === undefined || payout.destination === destination) &&
            created(payout.created) &&
            arrival(payout.arrival_date),
        );
        return { body: list(payouts, '/v1/payouts', params) };
      },
    ],
    [
      'GET',
      /^\/v1\/payouts\/(po_\w+)$/,
      ({ account }, [, id]) => {
        const record = state.payouts[id as string];
        return {
          body: found(
            record !== undefined && record.account === (account ?? 'platform')
              ? record.payout
              : undefined,
            'payout',
            id as string,
          ),
        };
      },
    ],
  ];

  return { routes, payOut };
}
