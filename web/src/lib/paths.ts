/**
 * The app's own pages that more than one part of the web links to (spec 000 §2, 001 §2). Features
 * do not import each other, so a link from one feature (or a bar of the layout) to a page of
 * another goes through these names.
 */
export const PATHS = {
  sellers: '/sellers',
  terms: '/legal/terms',
  /** The create-item form (spec route /my-tokens/mint-form). */
  mintForm: '/my-tokens/mint-form',
  /** The wallet: its tabs are the children below (it redirects to myTokens). */
  wallet: '/account/wallet',
  myTokens: '/account/wallet/mytokens',
  myMints: '/account/wallet/mymints',
  settings: '/account/settings/general',
  /** The saved cards (settings' second tab; redirects to settings while fiat is off). */
  paymentMethods: '/account/settings/paymentmethod',
  /** The blank page the onboarding window opens on before it is pointed at Stripe (001 §2). */
  redirecting: '/redirecting',
  /** Stripe's return_url after Connect onboarding (the onboarding window comes back here). */
  minterReturn: '/stripe/onboarding/minter',
  signup: '/session/signup',
} as const;
