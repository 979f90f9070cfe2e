/**
 * Disputes (chargebacks) of the Stripe twin, in Stripe's lifecycle. Stripe opens a dispute when a
 * cardholder's bank does; in the twin a test opens and decides it (`POST /dev/disputes`, `POST
 * /dev/disputes/{id}/close`), and the product answers it through the API as it would Stripe's:
 * retrieve, list, update evidence and submit (`under_review`), or accept (`close`: `lost`).
 *
 * Money (Stripe's "How disputes work"): opening withdraws the disputed amount and the dispute fee
 * from the platform's balance in one balance transaction (`adjustment`, reporting category
 * `dispute`, the fee in its `fee`); with separate charges and transfers the platform bears the
 * dispute, connected accounts are untouched. Won, the amount is reinstated (`dispute_reversal`);
 * the dispute fee is not (Stripe no longer returns the "dispute received" fee of a won dispute).
 */
import type Stripe from 'stripe';
import type { Ledger } from './ledger';
import type { ChargeRecord } from './money';
import { stripeId, unix } from './objects';
import {
  createdFilter,
  found,
  invalid,
  list,
  metadata,
  missing,
  str,
  StripeError,
  type ApiRoute,
  type Params,
  type RequestRef,
} from './params';

/** Stripe's dispute fee (15.00 in USD), in the charge's currency (README: simplification). */
export const DISPUTE_FEE = 1500;
/** When evidence is due: the end (23:59:59 UTC) of the 7th day after the dispute opens. */
export const EVIDENCE_DAYS = 7;
/** Stripe's limit on the combined length of a dispute's evidence texts. */
const EVIDENCE_MAX_CHARS = 150_000;

export const DISPUTE_REASONS = [
  'bank_cannot_process',
  'check_returned',
  'credit_not_processed',
  'customer_initiated',
  'debit_not_authorized',
  'duplicate',
  'fraudulent',
  'general',
  'incorrect_account_details',
  'insufficient_funds',
  'noncompliant',
  'product_not_received',
  'product_unacceptable',
  'subscription_canceled',
  'unrecognized',
] as const;

/** Visa's reason codes for the reasons Stripe maps them to (card network detail). */
const VISA_REASON_CODES: Record<string, string> = {
  fraudulent: '10.4',
  product_not_received: '13.1',
  product_unacceptable: '13.3',
  subscription_canceled: '13.2',
  credit_not_processed: '13.6',
  duplicate: '12.6.1',
  general: '13.7',
};

/** The evidence fields Stripe's `POST /v1/disputes/{id}` takes (strings, or file ids). */
const EVIDENCE_FIELDS = [
  'access_activity_log',
  'billing_address',
  'cancellation_policy',
  'cancellation_policy_disclosure',
  'cancellation_rebuttal',
  'customer_communication',
  'customer_email_address',
  'customer_name',
  'customer_purchase_ip',
  'customer_signature',
  'duplicate_charge_documentation',
  'duplicate_charge_explanation',
  'duplicate_charge_id',
  'product_description',
  'receipt',
  'refund_policy',
  'refund_policy_disclosure',
  'refund_refusal_explanation',
  'service_date',
  'service_documentation',
  'shipping_address',
  'shipping_carrier',
  'shipping_date',
  'shipping_documentation',
  'shipping_tracking_number',
  'uncategorized_file',
  'uncategorized_text',
] as const;

export interface DisputeState {
  disputes: Record<string, Stripe.Dispute>;
}

export interface DisputeContext {
  state: DisputeState & {
    charges: Record<string, ChargeRecord>;
    paymentIntents: Record<string, Stripe.PaymentIntent>;
  };
  now: () => Date;
  ledger: Ledger;
  /** The Charge in Stripe's shape (its card). */
  charge: (id: string) => Stripe.Charge | undefined;
  emit: (
    type: string,
    object: { id?: string; object?: string },
    request: RequestRef,
    previousAttributes?: Record<string, unknown>,
  ) => void;
}

export interface OpenDispute {
  payment_intent?: string;
  charge?: string;
  reason?: string;
  amount?: number;
}

export interface Disputes {
  routes: ApiRoute[];
  /** A cardholder's bank opens a dispute on a succeeded charge (the test control). */
  open(input: OpenDispute): Stripe.Dispute;
  /** The bank decides it (the test control): won reinstates the funds. */
  close(id: string, outcome: 'won' | 'lost'): Stripe.Dispute;
  /** The status of the charge's dispute, if it has one. */
  statusOf(chargeId: string): Stripe.Dispute.Status | undefined;
}

const NO_REQUEST: RequestRef = { id: null, idempotency_key: null };
const OPEN_STATUSES = new Set<string>([
  'warning_needs_response',
  'needs_response',
  'warning_under_review',
  'under_review',
]);

/** A control's refusal: 400 in Stripe's error shape. */
const refused = (message: string, param?: string) =>
  new StripeError(400, {
    type: 'invalid_request_error',
    message,
    ...(param === undefined ? {} : { param }),
  });

export function disputeRoutes(context: DisputeContext): Disputes {
  const { state, now, ledger } = context;

  function dispute(id: string): Stripe.Dispute {
    return found(state.disputes[id], 'dispute', id, 'dispute');
  }

  function save(updated: Stripe.Dispute): Stripe.Dispute {
    state.disputes[updated.id] = updated;
    return updated;
  }

  function open(input: OpenDispute): Stripe.Dispute {
    const reason = input.reason ?? 'fraudulent';
    if (!(DISPUTE_REASONS as readonly string[]).includes(reason)) {
      throw refused(`Invalid reason: must be one of ${DISPUTE_REASONS.join(', ')}`, 'reason');
    }
    let chargeId = input.charge;
    if (chargeId === undefined && input.payment_intent !== undefined) {
      const intent = state.paymentIntents[input.payment_intent];
      if (!intent) throw missing('payment_intent', input.payment_intent, 'payment_intent');
      chargeId = typeof intent.latest_charge === 'string' ? intent.latest_charge : undefined;
      if (chargeId === undefined) {
        throw refused(`PaymentIntent ${intent.id} has no charge to dispute.`, 'payment_intent');
      }
    }
    if (chargeId === undefined) throw refused('Give `payment_intent` or `charge`.', 'charge');
    const record = state.charges[chargeId];
    const charge = context.charge(chargeId);
    if (!record || !charge) throw missing('charge', chargeId, 'charge');
    if (charge.status !== 'succeeded') {
      throw refused(`Charge ${chargeId} has not succeeded: there is nothing to dispute.`, 'charge');
    }
    if (Object.values(state.disputes).some((entry) => entry.charge === chargeId)) {
      throw refused(`Charge ${chargeId} is already disputed.`, 'charge');
    }
    const left = record.amount - record.refunded;
    // Stripe: a fully refunded payment can no longer be disputed.
    if (left === 0) throw refused(`Charge ${chargeId} is fully refunded.`, 'charge');
    const amount = input.amount ?? left;
    if (!Number.isInteger(amount) || amount < 1 || amount > left) {
      throw refused(`The disputed amount must be between 1 and ${left}.`, 'amount');
    }
    const id = stripeId('du');
    const created = unix(now());
    const dueDay = new Date((created + EVIDENCE_DAYS * 86_400) * 1000);
    dueDay.setUTCHours(23, 59, 59, 0);
    const withdrawal = ledger.record('platform', {
      amount: -amount,
      currency: record.currency,
      type: 'adjustment',
      reportingCategory: 'dispute',
      source: id,
      description: `Chargeback withdrawal for ${chargeId}`,
      fee: { amount: DISPUTE_FEE, description: 'Dispute fee' },
    });
    const card = charge.payment_method_details?.card;
    const brand = card?.brand ?? 'visa';
    const networkReasonCode = brand === 'visa' ? (VISA_REASON_CODES[reason] ?? null) : null;
    const opened = save({
      id,
      object: 'dispute',
      amount,
      balance_transactions: [withdrawal],
      charge: chargeId,
      created,
      currency: record.currency,
      enhanced_eligibility_types: [],
      evidence: {
        ...Object.fromEntries(EVIDENCE_FIELDS.map((field) => [field, null])),
        enhanced_evidence: {},
      },
      evidence_details: {
        due_by: Math.floor(dueDay.getTime() / 1000),
        enhanced_eligibility: {},
        has_evidence: false,
        past_due: false,
        submission_count: 0,
        submission_method: 'not_submitted',
      },
      intended_submission_method: null,
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      network_reason_code: networkReasonCode,
      payment_intent: record.paymentIntent,
      payment_method_details: {
        card: {
          brand,
          case_type: 'chargeback',
          network: brand,
          network_reason_code: networkReasonCode,
        },
        type: 'card',
      },
      reason,
      status: 'needs_response',
    } as unknown as Stripe.Dispute);
    record.disputed = true;
    context.emit('charge.dispute.created', opened, NO_REQUEST);
    context.emit('charge.dispute.funds_withdrawn', opened, NO_REQUEST);
    return opened;
  }

  function close(id: string, outcome: 'won' | 'lost'): Stripe.Dispute {
    const current = dispute(id);
    if (!OPEN_STATUSES.has(current.status)) {
      throw refused(`This dispute is already closed (${current.status}).`, 'dispute');
    }
    if (outcome === 'lost') {
      const lost = save({ ...current, status: 'lost' });
      context.emit('charge.dispute.closed', lost, NO_REQUEST, { status: current.status });
      return lost;
    }
    const reinstatement = ledger.record('platform', {
      amount: current.amount,
      currency: current.currency,
      type: 'adjustment',
      reportingCategory: 'dispute_reversal',
      source: id,
      description: `Chargeback reversal for ${current.charge as string}`,
    });
    const reinstated = save({
      ...current,
      balance_transactions: [...current.balance_transactions, reinstatement],
    });
    context.emit('charge.dispute.funds_reinstated', reinstated, NO_REQUEST);
    const won = save({ ...reinstated, status: 'won' });
    context.emit('charge.dispute.closed', won, NO_REQUEST, { status: current.status });
    return won;
  }

  /** `POST /v1/disputes/{id}`: evidence (staged, or submitted: `under_review`) and metadata. */
  function update(id: string, params: Params, event: RequestRef): Stripe.Dispute {
    const current = dispute(id);
    const evidenceParam = params.evidence;
    const hasEvidence = evidenceParam !== undefined && evidenceParam !== '';
    // `submit` defaults to true (Stripe's API reference): evidence given is submitted unless
    // `submit=false`; a metadata-only update submits nothing unless asked.
    const submit = params.submit === 'true' || (hasEvidence && params.submit !== 'false');
    let evidence = current.evidence;
    if (hasEvidence) {
      if (typeof evidenceParam !== 'object' || evidenceParam === null) {
        throw invalid('evidence', 'Invalid hash', 'parameter_invalid_empty');
      }
      const changes: Record<string, string> = {};
      for (const [field, value] of Object.entries(evidenceParam as Params)) {
        if (field === 'enhanced_evidence') continue;
        if (!(EVIDENCE_FIELDS as readonly string[]).includes(field) || typeof value !== 'string') {
          throw new StripeError(400, {
            type: 'invalid_request_error',
            code: 'parameter_unknown',
            message: `Received unknown parameter: evidence[${field}]`,
            param: `evidence[${field}]`,
          });
        }
        changes[field] = value;
      }
      evidence = { ...evidence, ...changes } as Stripe.Dispute.Evidence;
      const length = EVIDENCE_FIELDS.reduce((total, field) => {
        const value = (evidence as unknown as Record<string, unknown>)[field];
        return total + (typeof value === 'string' ? value.length : 0);
      }, 0);
      if (length > EVIDENCE_MAX_CHARS) {
        throw invalid(
          'evidence',
          `The combined character count of the evidence fields (${length}) exceeds ${EVIDENCE_MAX_CHARS}.`,
          'parameter_invalid_string_size',
        );
      }
    }
    const answerable =
      current.status === 'needs_response' || current.status === 'warning_needs_response';
    if ((hasEvidence || submit) && !answerable) {
      throw refused(
        `This dispute has a status of ${current.status}: its evidence can no longer be changed or submitted.`,
        'evidence',
      );
    }
    const previous: Record<string, unknown> = {};
    let updated: Stripe.Dispute = { ...current, evidence };
    if (hasEvidence) {
      previous.evidence = current.evidence;
      updated = {
        ...updated,
        evidence_details: { ...updated.evidence_details, has_evidence: true },
      };
    }
    if (params.metadata !== undefined) {
      previous.metadata = current.metadata;
      updated = {
        ...updated,
        metadata: params.metadata === '' ? {} : { ...current.metadata, ...metadata(params) },
      };
    }
    if (submit) {
      previous.status = current.status;
      previous.evidence_details = current.evidence_details;
      const details = updated.evidence_details;
      updated = {
        ...updated,
        status:
          current.status === 'warning_needs_response' ? 'warning_under_review' : 'under_review',
        evidence_details: {
          ...details,
          has_evidence: true,
          submission_count: details.submission_count + 1,
          submission_method: 'manual',
          past_due: details.due_by !== null && unix(now()) > details.due_by,
        },
      };
    }
    save(updated);
    if (Object.keys(previous).length > 0) {
      context.emit('charge.dispute.updated', updated, event, previous);
    }
    return updated;
  }

  const routes: ApiRoute[] = [
    [
      'GET',
      /^\/v1\/disputes$/,
      ({ params }) => {
        const chargeId = str(params, 'charge');
        const intent = str(params, 'payment_intent');
        const created = createdFilter(params);
        const disputes = Object.values(state.disputes)
          .filter(
            (entry) =>
              (chargeId === undefined || entry.charge === chargeId) &&
              (intent === undefined || entry.payment_intent === intent) &&
              created(entry.created),
          )
          .reverse();
        return { body: list(disputes, '/v1/disputes', params) };
      },
    ],
    [
      'GET',
      /^\/v1\/disputes\/((?:du|dp)_\w+)$/,
      (_request, [, id]) => ({ body: dispute(id as string) }),
    ],
    [
      'POST',
      /^\/v1\/disputes\/((?:du|dp)_\w+)$/,
      ({ params, event }, [, id]) => ({ body: update(id as string, params, event) }),
    ],
    [
      'POST',
      /^\/v1\/disputes\/((?:du|dp)_\w+)\/close$/,
      ({ event }, [, id]) => {
        const current = dispute(id as string);
        if (current.status !== 'needs_response' && current.status !== 'warning_needs_response') {
          throw refused(
            OPEN_STATUSES.has(current.status)
              ? `This dispute has a status of ${current.status} and can no longer be accepted.`
              : `This dispute is already closed (${current.status}).`,
          );
        }
        const lost = save({ ...current, status: 'lost' });
        context.emit('charge.dispute.closed', lost, event, { status: current.status });
        return { body: lost };
      },
    ],
  ];

  return {
    routes,
    open,
    close,
    statusOf: (chargeId) =>
      Object.values(state.disputes).find((entry) => entry.charge === chargeId)?.status,
  };
}
