/**
 * The deployment's feature switches (spec 000 §1, 001 §1) as typed defaults. Every switch can be
 * overridden by an environment variable `FEATURE_<SNAKE_NAME>` (booleans: true/false/1/0/on/off;
 * lists: comma-separated; enums: the value). The public ones reach the web through GET /api/config.
 */
export const PRODUCT_TYPES = ['physical', 'digital', 'ticket', 'service'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export const IDENTITY_PROVIDERS = ['none', 'manual'] as const;
export type IdentityProvider = (typeof IDENTITY_PROVIDERS)[number];

export interface Switches {
  fiat: boolean;
  sats: boolean;
  passwordLogin: boolean;
  messages: boolean;
  connections: boolean;
  follows: boolean;
  auctionsAndFixedPrice: boolean;
  onlySellersInDirectory: boolean;
  mintableTypes: ProductType[];
  tokenTransfer: boolean;
  identityProvider: IdentityProvider;
  userLimits: boolean;
  /** FAQ page and the built-by link. */
  faq: boolean;
  companyOnlyMinting: boolean;
  companyOnlySelling: boolean;
  individualProfiles: boolean;
  companyProfiles: boolean;
  rooms: boolean;
}

/** This deployment's values, exactly as the spec's switch table gives them. */
export const DEFAULT_SWITCHES: Readonly<Switches> = Object.freeze<Switches>({
  fiat: true,
  sats: false,
  passwordLogin: false,
  messages: false,
  connections: false,
  follows: true,
  auctionsAndFixedPrice: true,
  onlySellersInDirectory: true,
  mintableTypes: ['physical'],
  tokenTransfer: false,
  identityProvider: 'none',
  userLimits: true,
  faq: false,
  companyOnlyMinting: false,
  companyOnlySelling: false,
  individualProfiles: true,
  companyProfiles: true,
  rooms: false,
});

export function switchEnvName(key: keyof Switches): string {
  return `FEATURE_${key.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`;
}

export class SwitchConfigError extends Error {
  constructor(variable: string, value: string, expected: string) {
    super(`${variable}=${JSON.stringify(value)} is not valid: expected ${expected}`);
    this.name = 'SwitchConfigError';
  }
}

const TRUE = new Set(['true', '1', 'on', 'yes']);
const FALSE = new Set(['false', '0', 'off', 'no']);

function parseBoolean(variable: string, raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  throw new SwitchConfigError(variable, raw, 'true or false');
}

function parseMember<T extends string>(variable: string, raw: string, allowed: readonly T[]): T {
  const value = raw.trim().toLowerCase();
  const found = allowed.find((member) => member === value);
  if (found === undefined) throw new SwitchConfigError(variable, raw, allowed.join(' | '));
  return found;
}

/**
 * The switches in force: defaults overridden by environment. A malformed override throws at start
 * rather than silently falling back, so an operator sees the typo.
 */
export function readSwitches(env: Record<string, string | undefined> = {}): Switches {
  const result: Switches = {
    ...DEFAULT_SWITCHES,
    mintableTypes: [...DEFAULT_SWITCHES.mintableTypes],
  };
  for (const key of Object.keys(DEFAULT_SWITCHES) as (keyof Switches)[]) {
    const variable = switchEnvName(key);
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') continue;
    if (key === 'mintableTypes') {
      const types = raw.split(',').map((part) => parseMember(variable, part, PRODUCT_TYPES));
      result.mintableTypes = [...new Set(types)];
    } else if (key === 'identityProvider') {
      result.identityProvider = parseMember(variable, raw, IDENTITY_PROVIDERS);
    } else {
      result[key] = parseBoolean(variable, raw);
    }
  }
  return result;
}
