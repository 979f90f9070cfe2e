import * as z from 'zod';

/** GET /api/health */
export const healthSchema = z.object({
  status: z.literal('ok'),
  stage: z.string(),
  time: z.string(),
});
export type Health = z.infer<typeof healthSchema>;

/** GET /api/config: the public switches and constants the web needs. */
export const publicConfigSchema = z.object({
  stage: z.string(),
  switches: z.object({
    fiat: z.boolean(),
    sats: z.boolean(),
    passwordLogin: z.boolean(),
    messages: z.boolean(),
    connections: z.boolean(),
    follows: z.boolean(),
    auctionsAndFixedPrice: z.boolean(),
    onlySellersInDirectory: z.boolean(),
    mintableTypes: z.array(z.enum(['physical', 'digital', 'ticket', 'service'])),
    tokenTransfer: z.boolean(),
    identityProvider: z.enum(['none', 'manual']),
    userLimits: z.boolean(),
    faq: z.boolean(),
    companyOnlyMinting: z.boolean(),
    companyOnlySelling: z.boolean(),
    individualProfiles: z.boolean(),
    companyProfiles: z.boolean(),
    rooms: z.boolean(),
  }),
  /** Base URL of public images ('/media'). */
  imagesBaseUrl: z.string(),
  /**
   * What Amplify Auth needs: the user pool, the web's app client, and (on the twin only) the local
   * Cognito-compatible endpoint. null while the deployment has no user pool.
   */
  auth: z
    .object({
      region: z.string(),
      userPoolId: z.string(),
      userPoolClientId: z.string(),
      endpoint: z.string().nullable(),
    })
    .nullable(),
  /** URL of the live channel (wss:// in AWS, ws://localhost:3001 on the twin); null if none. */
  realtimeUrl: z.string().nullable(),
  currencies: z.array(
    z.object({ iso: z.string(), symbol: z.string(), name: z.string(), decimals: z.number() }),
  ),
  limits: z.record(z.string(), z.unknown()),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
