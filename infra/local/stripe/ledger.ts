/**
 * The twin's ledger: every balance (the platform's, each connected account's) and the balance
 * transactions that moved it, as Stripe keeps them. Every money movement of the twin goes through
 * `record`, which changes the holder's available balance by the transaction's `net` and keeps the
 * transaction, so `GET /v1/balance` always equals the sum of the holder's transactions.
 *
 * Types and reporting categories are Stripe's (the `BalanceTransaction` reference and "Reporting
 * categories" guide; see README.md): a charge `charge`/`charge`, a refund `refund`/`refund`, a
 * transfer on the platform `transfer`/`transfer` and on the account `payment`/`charge`, a transfer
 * reversal on the platform `transfer_refund`/`transfer_reversal` and on the account
 * `payment_refund`/`refund`, a dispute's withdrawal `adjustment`/`dispute` (the dispute fee in its
 * `fee`) and reinstatement `adjustment`/`dispute_reversal`, a payout `payout`/`payout` and its
 * failure `payout_failure`/`payout_reversal`.
 */
import type Stripe from 'stripe';
import { stripeId, unix } from './objects';
import { createdFilter, expansions, found, list, str, type ApiRoute } from './params';

export interface Balances {
  /** `platform`, or a connected account's id → currency → amounts. */
  [holder: string]: Record<string, { available: number; pending: number }>;
}

export interface LedgerEntry {
  /** `platform` or the connected account whose balance moved. */
  holder: string;
  /** The automatic payout that paid this transaction out, if one did (`?payout=`). */
  payout: string | null;
  transaction: Stripe.BalanceTransaction;
}

export interface LedgerState {
  balances: Balances;
  /** Every balance transaction, oldest first (a state file from before them has none). */
  balanceTransactions: Record<string, LedgerEntry>;
}

export interface Movement {
  /** Gross amount, signed: positive into the balance, negative out of it. */
  amount: number;
  currency: string;
  type: Stripe.BalanceTransaction.Type;
  reportingCategory: string;
  /** The object that moved the money (`ch_…`, `re_…`, `tr_…`, `du_…`, `po_…`…). */
  source: string;
  description: string | null;
  /** A Stripe fee taken with it (the dispute fee), which `net` subtracts. */
  fee?: { amount: number; description: string };
}

export interface Ledger {
  balanceOf(holder: string, currency: string): { available: number; pending: number };
  /** Moves the holder's available balance by the movement's net and keeps its transaction. */
  record(holder: string, movement: Movement): Stripe.BalanceTransaction;
  /** Marks the holder's transactions not yet paid out in `currency` as paid out by `payout`. */
  paidOut(holder: string, currency: string, payout: string): void;
  transaction(id: string): Stripe.BalanceTransaction | undefined;
  routes: ApiRoute[];
}

const holderOf = (account: string | undefined) => account ?? 'platform';

export function createLedger(
  state: LedgerState,
  now: () => Date,
  /** The currency an empty balance is shown in (a connected account's default currency). */
  defaultCurrency: (holder: string) => string,
  /**
   * The object a transaction's `source` names, in Stripe's shape, for `expand[]=data.source` (a
   * charge, refund, transfer, transfer reversal, dispute or payout); undefined leaves the id.
   */
  sourceObject: (id: string) => unknown = () => undefined,
): Ledger {
  const balanceOf = (holder: string, currency: string) => {
    const holderBalances = (state.balances[holder] ??= {});
    return (holderBalances[currency] ??= { available: 0, pending: 0 });
  };

  function record(holder: string, movement: Movement): Stripe.BalanceTransaction {
    const created = unix(now());
    const fee = movement.fee?.amount ?? 0;
    const net = movement.amount - fee;
    const transaction = {
      id: stripeId('txn'),
      object: 'balance_transaction',
      amount: movement.amount,
      // Simplified (README): available at once.
      available_on: created,
      balance_type: 'payments',
      created,
      currency: movement.currency,
      description: movement.description,
      exchange_rate: null,
      fee,
      fee_details:
        movement.fee === undefined
          ? []
          : [
              {
                amount: movement.fee.amount,
                application: null,
                currency: movement.currency,
                description: movement.fee.description,
                type: 'stripe_fee',
              },
            ],
      net,
      reporting_category: movement.reportingCategory,
      source: movement.source,
      status: 'available',
      type: movement.type,
    } as unknown as Stripe.BalanceTransaction;
    balanceOf(holder, movement.currency).available += net;
    state.balanceTransactions[transaction.id] = { holder, payout: null, transaction };
    return transaction;
  }

  /** The holder's transactions, newest first (insertion order breaks ties within a second). */
  const entriesOf = (holder: string) =>
    Object.values(state.balanceTransactions)
      .filter((entry) => entry.holder === holder)
      .reverse();

  const routes: ApiRoute[] = [
    [
      'GET',
      /^\/v1\/balance$/,
      ({ account }) => {
        const amounts = Object.entries(state.balances[holderOf(account)] ?? {});
        const currencies =
          amounts.length > 0
            ? amounts
            : [[defaultCurrency(holderOf(account)), { available: 0, pending: 0 }] as const];
        const balance = {
          object: 'balance',
          available: currencies.map(([currency, amount]) => ({
            amount: amount.available,
            currency,
            source_types: { card: amount.available },
          })),
          connect_reserved: currencies.map(([currency]) => ({ amount: 0, currency })),
          livemode: false,
          pending: currencies.map(([currency, amount]) => ({
            amount: amount.pending,
            currency,
            source_types: { card: amount.pending },
          })),
        } as unknown as Stripe.Balance;
        return { body: balance };
      },
    ],
    [
      'GET',
      /^\/v1\/balance_transactions$/,
      ({ params, account }) => {
        const created = createdFilter(params);
        const type = str(params, 'type');
        const source = str(params, 'source');
        const payout = str(params, 'payout');
        const currency = str(params, 'currency');
        const transactions = entriesOf(holderOf(account))
          .filter(
            ({ transaction, payout: paidBy }) =>
              created(transaction.created) &&
              (type === undefined || transaction.type === type) &&
              (source === undefined || transaction.source === source) &&
              (currency === undefined || transaction.currency === currency) &&
              (payout === undefined || paidBy === payout || transaction.source === payout),
          )
          .map((entry) => entry.transaction);
        // `expand[]=data.source`: each transaction's source object in place of its id (Stripe's
        // way to read what moved the money without a call per transaction).
        const expanded = expansions(params).includes('data.source')
          ? transactions.map((transaction) => ({
              ...transaction,
              source: sourceObject(transaction.source as string) ?? transaction.source,
            }))
          : transactions;
        return { body: list(expanded, '/v1/balance_transactions', params) };
      },
    ],
    [
      'GET',
      /^\/v1\/balance_transactions\/(txn_\w+)$/,
      ({ account }, [, id]) => {
        const entry = state.balanceTransactions[id as string];
        return {
          body: found(
            entry?.holder === holderOf(account) ? entry.transaction : undefined,
            'balance transaction',
            id as string,
          ),
        };
      },
    ],
  ];

  return {
    balanceOf,
    record,
    paidOut: (holder, currency, payout) => {
      for (const entry of Object.values(state.balanceTransactions)) {
        if (
          entry.holder === holder &&
          entry.payout === null &&
          entry.transaction.currency === currency &&
          entry.transaction.source !== payout
        ) {
          entry.payout = payout;
        }
      }
    },
    transaction: (id) => state.balanceTransactions[id]?.transaction,
    routes,
  };
}
