import type { PublicConfig } from '../../shared/schemas/system';
import { readSwitches } from '../../shared/switches';
import { CURRENCIES, FIAT_CURRENCIES } from '../../shared/money';
import {
  COMMISSION_LIMITS,
  ITEM_LIMITS,
  LISTING_LIMITS,
  PAGE_SIZE,
  PROFILE_LIMITS,
  SALE_FEE_BPS,
  TIMINGS,
} from '../../shared/constants/limits';
import type { HandlerEnv } from '../core/env';

/** What the web needs to know about this deployment: switches, currencies and limits. */
export function publicConfig(
  env: HandlerEnv,
  variables: Record<string, string | undefined>,
): PublicConfig {
  const switches = readSwitches(variables);
  const currencies = [...FIAT_CURRENCIES, ...(switches.sats ? (['SAT'] as const) : [])].map(
    (code) => CURRENCIES[code],
  );
  return {
    stage: env.stage,
    switches,
    imagesBaseUrl: env.imagesBaseUrl,
    realtimeUrl: env.realtimeUrl ?? null,
    auth:
      env.userPoolId === undefined || env.userPoolClientId === undefined
        ? null
        : {
            region: env.region,
            userPoolId: env.userPoolId,
            userPoolClientId: env.userPoolClientId,
            endpoint: env.cognitoEndpoint ?? null,
          },
    currencies: currencies.map(({ iso, symbol, name, decimals }) => ({
      iso,
      symbol,
      name,
      decimals,
    })),
    limits: {
      pageSize: PAGE_SIZE,
      item: ITEM_LIMITS,
      listing: LISTING_LIMITS,
      profile: PROFILE_LIMITS,
      commission: COMMISSION_LIMITS,
      saleFeeBps: SALE_FEE_BPS,
      toastMs: TIMINGS.toastMs,
      pingMs: TIMINGS.pingMs,
      socketReconnectMs: TIMINGS.socketReconnectMs,
    },
  };
}
