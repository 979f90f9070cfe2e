import type {
  CreateAuthChallengeTriggerEvent,
  DefineAuthChallengeTriggerEvent,
  PreAuthenticationTriggerEvent,
  VerifyAuthChallengeResponseTriggerEvent,
} from 'aws-lambda';
import { profileVerifiedUpdate } from '../profiles/index';
import type { AccountsRepo } from './accounts.repo';
import type { PinSender } from './messages';
import {
  decideAttempt,
  failureBuckets,
  failureTtl,
  normaliseSource,
  THROTTLE_RULES,
  trustTtl,
} from './login-throttle';
import {
  checkPin,
  isLive,
  maskEmail,
  maskPhone,
  newChallengeId,
  newPinRecord,
  PIN_RULES,
  type PinStep,
  type RandomInt,
} from './pins';

/**
 * The login (spec 001 §2 login modal steps 0–3, §4): Cognito custom auth with our three triggers.
 * An e-mail pin, then a phone pin, then tokens.
 *
 * Contract with Cognito (and the twin's local endpoint, which runs the same modules):
 * - define reads `request.session` (each entry: challengeName, challengeResult,
 *   challengeMetadata) and sets `response.challengeName`, `issueTokens`, `failAuthentication`.
 * - create reads `userName`, `request.userAttributes.email|phone_number`, `request.session`,
 *   `request.userNotFound`; sets `response.publicChallengeParameters` { step, destination,
 *   resendAfter }, `privateChallengeParameters` { challengeId, step } and `challengeMetadata`
 *   `PIN:<step>:<challengeId>`.
 * - verify reads `userName`, `request.privateChallengeParameters`, `request.challengeAnswer`;
 *   sets `response.answerCorrect`.
 * - create and verify read the caller's source from `request.userContextData.ipAddress` (see
 *   `sourceOf`) and ask login-throttle.ts before anything else; failures are counted per source,
 *   per login name and per pair; a completed login trusts its source for the login name.
 * A refusal is thrown as an Error whose message is an error code: `login.errors.403` (blocked
 * account) or `login.errors.wait:<seconds>` (too many failed pins: try again in that many seconds);
 * Cognito answers it as UserLambdaValidationException "<Trigger> failed with error <message>.",
 * which the web maps (web/src/features/accounts/loginErrors.ts).
 */
export class LoginRefused extends Error {
  override name = 'LoginRefused';
  constructor(
    readonly code: 'login.errors.403' | 'login.errors.wait',
    /** For login.errors.wait: how long to wait. */
    readonly retryAfterSeconds?: number,
  ) {
    super(code === 'login.errors.wait' ? `${code}:${retryAfterSeconds ?? 0}` : code);
  }
}

/**
 * The caller's IP address as the triggers receive it: `request.userContextData.ipAddress`, which
 * the twin's local Cognito endpoint fills from the connection (infra/local/cognito/README.md).
 * Cognito in AWS documents no source for the custom-auth triggers; without one the throttle keeps
 * its per-account rules only and AWS WAF limits each IP at the user pool (docs/operations.md).
 */
export function sourceOf(event: { request: object }): string | undefined {
  const context = (event.request as { userContextData?: { ipAddress?: unknown } }).userContextData;
  return normaliseSource(context?.ipAddress);
}

const METADATA_PREFIX = 'PIN';
/** A session longer than this is refused (5 tries × 2 steps plus resends, with room to spare). */
const MAX_SESSION_ENTRIES = 30;

export interface ChallengeMetadata {
  step: PinStep;
  challengeId: string;
}

export function challengeMetadata(meta: ChallengeMetadata): string {
  return `${METADATA_PREFIX}:${meta.step}:${meta.challengeId}`;
}

export function parseChallengeMetadata(value: string | undefined): ChallengeMetadata | undefined {
  const match = /^PIN:(email|phone):([0-9a-f]{32})$/.exec(value ?? '');
  if (match === null) return undefined;
  return { step: match[1] as PinStep, challengeId: match[2] as string };
}

type SessionEntry = DefineAuthChallengeTriggerEvent['request']['session'][number];

function passed(session: readonly SessionEntry[], step: PinStep): boolean {
  return session.some(
    (entry) =>
      entry.challengeName === 'CUSTOM_CHALLENGE' &&
      entry.challengeResult &&
      parseChallengeMetadata(entry.challengeMetadata)?.step === step,
  );
}

/** The step the next challenge asks for: the phone once the e-mail pin passed. */
export function nextStep(session: readonly SessionEntry[]): PinStep {
  return passed(session, 'email') ? 'phone' : 'email';
}

export type DefineDecision =
  { kind: 'challenge' } | { kind: 'tokens' } | { kind: 'fail'; reason: string };

/** Pure: what comes after this session. */
export function decideNext(session: readonly SessionEntry[]): DefineDecision {
  if (session.length === 0) return { kind: 'challenge' };
  if (session.length > MAX_SESSION_ENTRIES) return { kind: 'fail', reason: 'too many challenges' };
  const last = session[session.length - 1] as SessionEntry;
  const meta = parseChallengeMetadata(last.challengeMetadata);
  if (last.challengeName !== 'CUSTOM_CHALLENGE' || meta === undefined) {
    return { kind: 'fail', reason: `unexpected challenge ${last.challengeName}` };
  }
  if (last.challengeResult) {
    if (meta.step === 'email') return { kind: 'challenge' };
    return passed(session, 'email')
      ? { kind: 'tokens' }
      : { kind: 'fail', reason: 'phone pin without e-mail pin' };
  }
  const failures = session.filter(
    (entry) => entry.challengeMetadata === last.challengeMetadata && !entry.challengeResult,
  ).length;
  if (failures >= PIN_RULES.maxTries) return { kind: 'fail', reason: 'too many tries' };
  return { kind: 'challenge' };
}

export function defineAuthChallenge(
  event: DefineAuthChallengeTriggerEvent,
): DefineAuthChallengeTriggerEvent {
  const decision = decideNext(event.request.session ?? []);
  event.response.issueTokens = decision.kind === 'tokens';
  event.response.failAuthentication = decision.kind === 'fail';
  if (decision.kind === 'challenge') event.response.challengeName = 'CUSTOM_CHALLENGE';
  return event;
}

export interface LoginDeps {
  repo: AccountsRepo;
  sender: PinSender;
  now: () => Date;
  random?: RandomInt;
  /**
   * The create trigger answers no sooner than this after it started, so a decoy (which sends
   * nothing) takes as long as a real send. 0 in unit tests.
   */
  createMinMs: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Our user id from Cognito's userName. The pool's usernames are our ULIDs; a case-insensitive
 * pool may hand them back lower-cased (the local endpoint does), so a ULID-shaped name is
 * upper-cased (ULIDs are canonically upper-case). Anything else (an unknown login) is kept.
 */
export function userIdOf(userName: string): string {
  return /^[0-9A-HJKMNP-TV-Z]{26}$/i.test(userName) ? userName.toUpperCase() : userName;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function refuseIfThrottled(
  deps: LoginDeps,
  userName: string,
  source: string | undefined,
  now: Date,
): Promise<void> {
  const state = await deps.repo.readThrottle({
    userName,
    source,
    buckets: failureBuckets(now),
    now,
  });
  const decision = decideAttempt(state, now);
  if (decision.kind !== 'allow') throw new LoginRefused('login.errors.wait', decision.seconds);
}

export async function createAuthChallenge(
  deps: LoginDeps,
  event: CreateAuthChallengeTriggerEvent,
): Promise<CreateAuthChallengeTriggerEvent> {
  const started = Date.now();
  const now = deps.now();
  const { request } = event;
  const userName = event.userName;
  const session = request.session ?? [];
  const source = sourceOf(event);

  // The same reads for known and unknown users.
  const account = await deps.repo.getAccount(userIdOf(userName));
  const decoy = request.userNotFound === true || account === undefined;
  if (account?.blocked === true) throw new LoginRefused('login.errors.403');
  await refuseIfThrottled(deps, userName, source, now);

  const step = nextStep(session);
  const last = session[session.length - 1];
  const previous = last === undefined ? undefined : parseChallengeMetadata(last.challengeMetadata);
  let challengeId: string | undefined;
  let createdAt = now;
  if (last !== undefined && !last.challengeResult && previous?.step === step) {
    // A wrong answer: the same pin stays in force (nothing is sent again) while it is live.
    const current = await deps.repo.getPin(previous.challengeId);
    if (current !== undefined && current.userName === userName && isLive(current, now)) {
      challengeId = current.challengeId;
      createdAt = new Date(current.createdAt);
    }
  }
  if (challengeId === undefined) {
    const made = newPinRecord(
      { challengeId: newChallengeId(), userName, step, decoy },
      now,
      deps.random,
    );
    await deps.repo.putPin(made.record);
    challengeId = made.record.challengeId;
    if (!decoy) {
      if (step === 'email') await deps.sender.sendEmailPin({ to: account.email, pin: made.pin });
      else await deps.sender.sendSmsPin({ to: account.phone, pin: made.pin });
    }
  }

  const destination =
    step === 'email'
      ? maskEmail(account?.email ?? request.userAttributes?.email ?? userName)
      : maskPhone(account?.phone ?? request.userAttributes?.phone_number ?? '');
  event.response.publicChallengeParameters = {
    step,
    destination,
    resendAfter: new Date(createdAt.getTime() + PIN_RULES.resendCooldownMs).toISOString(),
  };
  event.response.privateChallengeParameters = { challengeId, step };
  event.response.challengeMetadata = challengeMetadata({ step, challengeId });

  const wait = deps.createMinMs - (Date.now() - started);
  if (wait > 0) await (deps.sleep ?? defaultSleep)(wait);
  return event;
}

export async function verifyAuthChallenge(
  deps: LoginDeps,
  event: VerifyAuthChallengeResponseTriggerEvent,
): Promise<VerifyAuthChallengeResponseTriggerEvent> {
  const now = deps.now();
  const userName = event.userName;
  const privateParameters = event.request.privateChallengeParameters ?? {};
  const challengeId = privateParameters.challengeId ?? '';
  const step: PinStep = privateParameters.step === 'phone' ? 'phone' : 'email';
  const answer = String(event.request.challengeAnswer ?? '');
  const source = sourceOf(event);

  await refuseIfThrottled(deps, userName, source, now);
  const record = challengeId === '' ? undefined : await deps.repo.getPin(challengeId);
  const check = checkPin(record, { challengeId, userName, step }, answer, now);

  let correct = false;
  if (check.outcome === 'correct') {
    correct = await deps.repo.consumePin({
      challengeId,
      userId: userIdOf(userName),
      step,
      profile: step === 'phone' ? profileVerifiedUpdate(userIdOf(userName), true) : undefined,
    });
    // The phone pin completes the login: its source is trusted for this login name.
    if (correct && step === 'phone' && source !== undefined) {
      await deps.repo.trustSource({
        userName,
        source,
        until: new Date(now.getTime() + THROTTLE_RULES.trustMs).toISOString(),
        ttl: trustTtl(now),
      });
    }
  } else if (check.outcome === 'resend') {
    await deps.repo.retirePin(challengeId);
  } else {
    await deps.repo.recordFailure({
      challengeId: record === undefined ? undefined : challengeId,
      userName,
      source,
      hourBucket: failureBuckets(now).current,
      at: now.toISOString(),
      ttl: failureTtl(now),
    });
  }
  event.response.answerCorrect = correct;
  return event;
}

/**
 * Pre-authentication trigger (password login, the passwordLogin switch). Cognito runs it before
 * it checks a password; a blocked account is refused with `login.errors.403` exactly as the pin
 * flow's triggers refuse it (UserLambdaValidationException "PreAuthentication failed with error
 * login.errors.403."). While the switch is off it does nothing (the pin triggers decide), so the
 * pin flow is unchanged whether or not Cognito also runs this trigger for custom auth.
 */
export async function preAuthentication(
  deps: { repo: Pick<AccountsRepo, 'getAccount'>; passwordLogin: boolean },
  event: PreAuthenticationTriggerEvent,
): Promise<PreAuthenticationTriggerEvent> {
  if (!deps.passwordLogin || event.request.userNotFound === true) return event;
  const account = await deps.repo.getAccount(userIdOf(event.userName));
  if (account?.blocked === true) throw new LoginRefused('login.errors.403');
  return event;
}
