import sharp from 'sharp';
import { createBid, bidsDeps } from '../../functions/bids/index';
import { bidBudget } from '../../functions/bids/testing/inputs';
import { putFinishedItem } from '../../functions/items/testing/items';
import {
  createOffering,
  getListingStatus,
  offeringsDeps,
  validateOffering,
} from '../../functions/offerings/index';
import { listingContract } from '../../functions/offerings/testing/listing';
import { ensureCustomer, paymentsDeps } from '../../functions/payments/index';
import { readSwitches, type ProductType } from '../../shared/switches';
import {
  createOfferingBodySchema,
  type Category,
  type ListingContract,
} from '../../shared/schemas/offerings';
import { postalAddressSchema, type PostalAddress } from '../../shared/schemas/orders';
import { gradientSquare, type SeedProfile } from './seed-data';
import type { Log } from './support';

/**
 * The demo market of `npm start` (issue 11's leftover): items of the demo sellers listed through
 * the product's own paths (the create call's use case, the listing workflow on the twin's runner,
 * support's approval) at a fixed price and at auction, and bids placed through the bid use case by
 * other demo sellers, each with a test card saved on the Stripe twin. Times are relative to the
 * seeding, so the auctions are live when the marketplace first opens: one ends within hours, one
 * is a multi-copy lot, one has a reserve not met yet, one has no bids.
 *
 * Items of a type this deployment does not let sellers mint (the `mintableTypes` switch; only
 * physical products by default, spec 000 §1) are left out, as no seller could have made them.
 *
 * Runs in a process whose environment is the twin's (functions/core/env.ts reads it).
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface DemoBid {
  bidder: string;
  /** Per copy, minor units; the lot's minimum then if omitted. */
  amount?: number;
  /** Copies asked for (a multi-copy lot); 1 otherwise. */
  quantity?: number;
  /** A proxy maximum per copy, minor units. */
  max?: number;
}

export interface DemoListing {
  seller: string;
  title: string;
  description: string;
  symbol: string;
  product_type: ProductType;
  /** Copies minted; `listed` of them are offered. */
  copies: number;
  listed: number;
  /** Countries a physical item is delivered to. */
  countries?: string[];
  listing: Pick<ListingContract, 'type' | 'currency' | 'price'> &
    Partial<Pick<ListingContract, 'buy_price' | 'reserve_price' | 'multi_copy'>>;
  categories: Category[];
  /** When the offering ends, from the seeding. */
  endsIn: number;
  /** The image: a line above the title and two gradient tones. */
  kicker: string;
  colors: [string, string];
  /** Bids in this order, each at its amount or the lot's minimum then. */
  bids?: DemoBid[];
}

const EUROPE = ['DE', 'ES', 'FR', 'GB', 'IE', 'IT', 'NL', 'PT'];

/** The demo listings a deployment minting `types` shows (its sellers could have made them). */
export function demoListingsFor(types: readonly ProductType[]): DemoListing[] {
  return DEMO_LISTINGS.filter((demo) => types.includes(demo.product_type));
}

export const DEMO_LISTINGS: DemoListing[] = [
  {
    seller: 'tidewater',
    title: 'Harbour Lights Festival, Saturday pass',
    description:
      'Full-day entry to the Saturday of Harbour Lights on the Brighton seafront: three stages, eleven bands, last set at 23:00. The QR code is scanned at the gate.',
    symbol: 'harbour-lights-sat',
    product_type: 'ticket',
    copies: 200,
    listed: 150,
    listing: { type: 'fixed', currency: 'GBP', price: 4_500 },
    categories: ['events', 'music'],
    endsIn: 30 * DAY,
    kicker: 'TICKET · SATURDAY',
    colors: ['#0f4c81', '#2a9d8f'],
  },
  {
    seller: 'nordlicht',
    title: 'KT88 valve amplifier No. 12',
    description:
      'A 2 × 40 W push-pull amplifier built by hand in Hamburg, point-to-point wired, with a walnut chassis. Serial No. 12 of the 2026 run, with its test sheet and lifetime service.',
    symbol: 'kt88-no12',
    product_type: 'physical',
    copies: 1,
    listed: 1,
    countries: EUROPE,
    listing: { type: 'auction', currency: 'EUR', price: 120_000, reserve_price: 150_000 },
    categories: ['music', 'collectibles'],
    endsIn: 3 * DAY,
    kicker: 'VALVE AMPLIFIER · SERIAL 12',
    colors: ['#1d1d1f', '#c9a227'],
    // Below the reserve no bid is allocated, so the minimum stays the starting price: each
    // bidder names their amount.
    bids: [
      { bidder: 'marcorossi', amount: 120_000 },
      { bidder: 'atelierronda', amount: 125_000 },
      { bidder: 'marcorossi', amount: 132_000 },
    ],
  },
  {
    seller: 'aikodraws',
    title: 'Tokyo nights, wallpaper set',
    description:
      'Twelve of the Tokyo night paintings as full-resolution files for screens and phones (6000 × 4000 px and 1290 × 2796 px), with a licence for personal use.',
    symbol: 'tokyo-nights-set',
    product_type: 'digital',
    copies: 50,
    listed: 40,
    listing: { type: 'fixed', currency: 'EUR', price: 2_500 },
    categories: ['art'],
    endsIn: 60 * DAY,
    kicker: 'DIGITAL · 12 FILES',
    colors: ['#6d28d9', '#ec4899'],
  },
  {
    seller: 'aikodraws',
    title: "Night tram, artist's proofs",
    description:
      "Five artist's proofs of the Night tram giclée print, 40 × 30 cm on cotton rag, signed and marked A/P. Bid for one copy or several: the five highest bids per copy win.",
    symbol: 'night-tram-ap',
    product_type: 'physical',
    copies: 5,
    listed: 5,
    countries: EUROPE,
    listing: { type: 'auction', currency: 'EUR', price: 8_000, multi_copy: true },
    categories: ['art', 'collectibles'],
    endsIn: 26 * HOUR,
    kicker: "5 ARTIST'S PROOFS",
    colors: ['#312e81', '#a855f7'],
    bids: [
      { bidder: 'kwameprints', quantity: 2 },
      { bidder: 'luciaceramics' },
      { bidder: 'hannahbakes', quantity: 2 },
      { bidder: 'samoconnor' },
    ],
  },
  {
    seller: 'hannahbakes',
    title: 'Croissant masterclass, Saturday morning',
    description:
      'Three hours in the Munich kitchen: laminated dough from scratch, shaping and baking. Aprons and coffee provided; you leave with a box of twelve.',
    symbol: 'croissant-class',
    product_type: 'service',
    copies: 12,
    listed: 12,
    listing: { type: 'fixed', currency: 'EUR', price: 6_500 },
    categories: ['education', 'experiencies'],
    endsIn: 10 * DAY,
    kicker: 'CLASS · 12 SEATS',
    colors: ['#be185d', '#f9a8d4'],
  },
  {
    seller: 'marcorossi',
    title: 'Omega Seamaster, 1962, serviced',
    description:
      'Calibre 552 automatic, 34 mm steel case, original dial. Fully serviced in 2026 with new gaskets and a timing sheet: +4 s/day. Ships insured.',
    symbol: 'seamaster-1962',
    product_type: 'physical',
    copies: 1,
    listed: 1,
    countries: EUROPE,
    listing: { type: 'auction', currency: 'EUR', price: 90_000, buy_price: 180_000 },
    categories: ['jewelry', 'collectibles'],
    endsIn: 3 * HOUR,
    kicker: 'AUTOMATIC · CALIBRE 552',
    colors: ['#334155', '#94a3b8'],
    bids: [{ bidder: 'nordlicht' }, { bidder: 'tidewater', max: 120_000 }, { bidder: 'nordlicht' }],
  },
  {
    seller: 'kwameprints',
    title: 'Accra signs, two-colour screen print',
    description:
      'Hand-pulled on 300 g cotton paper, 50 × 70 cm, red and yellow. Numbered and signed; run of 30.',
    symbol: 'accra-signs',
    product_type: 'physical',
    copies: 30,
    listed: 20,
    countries: [...EUROPE, 'US'],
    listing: { type: 'fixed', currency: 'EUR', price: 4_000 },
    categories: ['art'],
    endsIn: 45 * DAY,
    kicker: 'PRINT · RUN OF 30',
    colors: ['#b91c1c', '#facc15'],
  },
  {
    seller: 'greenhollow',
    title: 'Cheese-making day at Green Hollow',
    description:
      'A day on the farm in Devon: milking at eight, a soft cheese and a hard one made by you, lunch in the barn. Take your cheeses home once they have aged.',
    symbol: 'cheese-day',
    product_type: 'service',
    copies: 8,
    listed: 8,
    listing: { type: 'fixed', currency: 'GBP', price: 9_500 },
    categories: ['experiencies', 'travel'],
    endsIn: 20 * DAY,
    kicker: 'EXPERIENCE · 8 PLACES',
    colors: ['#166534', '#84cc16'],
  },
  {
    seller: 'luciaceramics',
    title: 'Wood-fired moon jar',
    description:
      'Stoneware, 38 cm tall, thrown in two halves and fired for four days in the anagama kiln. Ash glaze on the shoulder; firing notes included.',
    symbol: 'moon-jar',
    product_type: 'physical',
    copies: 1,
    listed: 1,
    countries: EUROPE,
    listing: { type: 'auction', currency: 'EUR', price: 30_000 },
    categories: ['art', 'collectibles'],
    endsIn: 5 * DAY,
    kicker: 'STONEWARE · ONE OF ONE',
    colors: ['#9a3412', '#fb923c'],
  },
  {
    seller: 'tidewater',
    title: 'Harbour Lights 2027 tour T-shirt',
    description:
      'Organic cotton, screen-printed in Brighton with the full line-up on the back. Sizes S to XL: tell the seller yours after buying.',
    symbol: 'harbour-lights-tee',
    product_type: 'physical',
    copies: 200,
    listed: 120,
    countries: EUROPE,
    listing: { type: 'fixed', currency: 'GBP', price: 2_800 },
    categories: ['fashion', 'music'],
    endsIn: 40 * DAY,
    kicker: 'ORGANIC COTTON · S TO XL',
    colors: ['#0f4c81', '#2a9d8f'],
  },
  {
    seller: 'aikodraws',
    title: 'Shinjuku after rain, giclée print',
    description:
      'The ink and watercolour painting as a giclée print, 50 × 35 cm on 310 g cotton rag, signed and numbered. Edition of 50, shipped flat.',
    symbol: 'shinjuku-rain-print',
    product_type: 'physical',
    copies: 50,
    listed: 40,
    countries: [...EUROPE, 'US'],
    listing: { type: 'fixed', currency: 'EUR', price: 9_500 },
    categories: ['art'],
    endsIn: 60 * DAY,
    kicker: 'GICLÉE PRINT · 1 OF 50',
    colors: ['#6d28d9', '#ec4899'],
  },
  {
    seller: 'greenhollow',
    title: 'Devon cheese box, autumn',
    description:
      "Four of the farm's cheeses at their best this month, about 1.2 kg, wrapped in waxed paper with tasting notes. Sent chilled on Mondays.",
    symbol: 'cheese-box-autumn',
    product_type: 'physical',
    copies: 30,
    listed: 30,
    countries: ['GB'],
    listing: { type: 'fixed', currency: 'GBP', price: 3_500 },
    categories: ['experiencies'],
    endsIn: 21 * DAY,
    kicker: 'FARM BOX · 1.2 KG',
    colors: ['#166534', '#84cc16'],
  },
];

/** The sellers' countries, for the items' issuer and the bidders' delivery addresses. */
export const COUNTRY: Record<string, string> = {
  tidewater: 'GB',
  nordlicht: 'DE',
  aikodraws: 'JP',
  atelierronda: 'ES',
  luciaceramics: 'ES',
  hannahbakes: 'DE',
  greenhollow: 'GB',
  kwameprints: 'GB',
  marcorossi: 'IT',
  samoconnor: 'IE',
};

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Words into lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/)) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= width)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** The item's image, 1200 × 1200 WebP, and its 400 px thumbnail: the title on a gradient. */
export async function renderItemImage(
  listing: Pick<DemoListing, 'title' | 'kicker' | 'colors'>,
): Promise<{ full: Buffer; thumb: Buffer }> {
  const lines = wrap(listing.title, 16).slice(0, 4);
  const top = 600 - (lines.length * 110) / 2 + 40;
  const text = lines
    .map(
      (line, index) =>
        `<text x="110" y="${top + index * 110}" font-size="96" font-weight="700">${escapeXml(line)}</text>`,
    )
    .join('');
  const kicker = `<text x="110" y="${top - 150}" font-size="40" letter-spacing="6" fill-opacity="0.8">${escapeXml(listing.kicker)}</text>`;
  const svg = gradientSquare(1200, listing.colors, kicker + text);
  const full = await sharp(Buffer.from(svg)).webp({ quality: 86 }).toBuffer();
  const thumb = await sharp(full).resize(400, 400).webp({ quality: 82 }).toBuffer();
  return { full, thumb };
}

/** A ticket's validity: a week after its offering ends. */
export function ticketExpiryOf(demo: DemoListing, now: number): string {
  return new Date(now + demo.endsIn + 7 * DAY).toISOString();
}

/** The listing a demo offering is created with, at `now` (ms). */
export function demoContract(demo: DemoListing, itemId: string, now: number): ListingContract {
  return listingContract(itemId, {
    ...demo.listing,
    copies: demo.listed,
    multi_copy: demo.listing.multi_copy ?? false,
    buy_price: demo.listing.buy_price ?? null,
    reserve_price: demo.listing.reserve_price ?? null,
    categories: demo.categories,
    start_at: new Date(now).toISOString(),
    end_at: new Date(now + demo.endsIn).toISOString(),
  });
}

/** The delivery address a demo bidder bids with: in their own country. */
export function addressOf(profile: SeedProfile): PostalAddress {
  const country = COUNTRY[profile.record.nick] ?? 'GB';
  return postalAddressSchema.parse({
    country,
    fullname: [profile.record.name, profile.record.surname].filter(Boolean).join(' '),
    line1: '1 Demo Street',
    postalcode: '10001',
    city: 'Demo City',
    stateprovince: 'Demo',
  });
}

/**
 * A test card (`pm_card_visa`) saved for off-session use on the user's Stripe customer (made if
 * they have none), as the add-card page leaves it.
 */
async function saveDemoCard(userId: string): Promise<void> {
  const deps = paymentsDeps();
  const customer = await ensureCustomer(deps, userId, new Date());
  const stripe = await deps.stripe();
  const setup = await stripe.setupIntents.create({
    customer,
    payment_method: 'pm_card_visa',
    confirm: true,
    usage: 'off_session',
  });
  if (setup.status !== 'succeeded') {
    throw new Error(`the demo card of ${userId} was not saved (${setup.status})`);
  }
}

async function waitFor(what: string, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not done within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Lists as the seller's create call does (its use case, the listing workflow on the twin's
 * runner) and has support approve it, then waits for the publication. Answers the offering's id.
 */
async function listApproved(
  sellerId: string,
  contract: ListingContract,
  idempotencyKey: string,
): Promise<string> {
  const deps = offeringsDeps();
  const { offeringId } = await createOffering(
    deps,
    sellerId,
    // What the call's body schema makes of it (the terms normalised), as the handler passes it.
    createOfferingBodySchema.parse({ offering: contract }).offering,
    idempotencyKey,
    new Date(),
  );
  await waitFor(`listing ${offeringId}`, async () => {
    const progress = await getListingStatus(deps, sellerId, offeringId);
    if (progress.step === 'error') {
      throw new Error(`listing ${offeringId} stopped: ${progress.error ?? 'no error code'}`);
    }
    return progress.step === 'done';
  });
  await validateOffering(deps, offeringId, { decision: 'approve' }, new Date());
  await waitFor(
    `publication of ${offeringId}`,
    async () => (await deps.repo.get(offeringId))?.status === 'validated',
  );
  return offeringId;
}

/**
 * A bid at `amount`; one without an amount of its own is at the lot's minimum: `amount` (what the
 * last answer said) first, the minimum the refusal names if it moved. Answers the new minimum.
 */
async function placeDemoBid(
  demo: DemoListing,
  offeringId: string,
  bidder: SeedProfile,
  bid: DemoBid,
  amount: number,
): Promise<number> {
  const deps = bidsDeps();
  const address = demo.product_type === 'physical' ? addressOf(bidder) : null;
  const place = (amount: number) =>
    createBid(
      deps,
      {
        callerId: bidder.record.id,
        offeringId,
        bidprice: amount,
        maxbid: bid.max ?? null,
        currency: demo.listing.currency,
        quantity: bid.quantity ?? 1,
        payment_method: null,
        postaladdress: address,
      },
      new Date(),
      bidBudget(),
    );
  try {
    return (await place(amount)).minimBid;
  } catch (error) {
    const minimum = (error as { details?: { minimBid?: number } }).details?.minimBid;
    if (bid.amount !== undefined || minimum === undefined || minimum === amount) throw error;
    return (await place(minimum)).minimBid;
  }
}

async function withContext<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new Error(`the demo market: ${what} failed${code === undefined ? '' : ` (${code})`}`, {
      cause: error,
    });
  }
}

/**
 * Seeds the demo market for the demo sellers; `putImage` stores an image in the images bucket.
 * Answers how many offerings were listed.
 */
export async function seedDemoMarket(input: {
  sellers: SeedProfile[];
  putImage: (key: string, body: Buffer) => Promise<void>;
  log: Log;
}): Promise<number> {
  const byNick = new Map(input.sellers.map((profile) => [profile.record.nick, profile]));
  const profileOf = (nick: string): SeedProfile => {
    const profile = byNick.get(nick);
    if (profile === undefined) throw new Error(`the demo market names an unknown seller @${nick}`);
    return profile;
  };
  const started = Date.now();
  const listings = demoListingsFor(readSwitches(process.env).mintableTypes);
  const bidders = [
    ...new Set(listings.flatMap((listing) => (listing.bids ?? []).map((bid) => bid.bidder))),
  ];
  await Promise.all(bidders.map((nick) => saveDemoCard(profileOf(nick).record.id)));

  const listed = await Promise.all(
    listings.map(async (demo) => {
      const seller = profileOf(demo.seller);
      const { record } = seller;
      const now = Date.now();
      const item = await putFinishedItem({
        creator: { id: record.id, nick: record.nick },
        copies: demo.copies,
        product_type: demo.product_type,
        title: demo.title,
        description: demo.description,
        symbol: demo.symbol,
        contactEmail: seller.account.email,
        shipping:
          demo.product_type === 'physical'
            ? { mode: 'delivery', countries: demo.countries ?? EUROPE }
            : null,
        ...(demo.product_type === 'ticket' ? { ticketExpiresAt: ticketExpiryOf(demo, now) } : {}),
        issuer: {
          legal_form: record.user_option === 'company' ? 'Company' : 'Individual',
          organisation:
            record.entity_name ?? [record.name, record.surname].filter(Boolean).join(' '),
          country: COUNTRY[record.nick] ?? 'GB',
          email: seller.account.email,
          governing_law: COUNTRY[record.nick] ?? 'GB',
          jurisdiction: COUNTRY[record.nick] ?? 'GB',
        },
      });
      const image = await renderItemImage(demo);
      const [stored] = item.images;
      if (stored === undefined) throw new Error(`demo item ${item.id} has no image key`);
      await Promise.all([
        input.putImage(stored.full, image.full),
        input.putImage(stored.thumb, image.thumb),
      ]);
      const contract = demoContract(demo, item.id, now);
      const offeringId = await listApproved(record.id, contract, `demo-${demo.symbol}`);
      return { demo, offeringId };
    }),
  );

  let bids = 0;
  for (const { demo, offeringId } of listed) {
    let minimum = demo.listing.price;
    for (const bid of demo.bids ?? []) {
      const bidder = profileOf(bid.bidder);
      minimum = await withContext(
        `@${bid.bidder}'s bid on ${demo.symbol} at ${bid.amount ?? minimum}`,
        () => placeDemoBid(demo, offeringId, bidder, bid, bid.amount ?? minimum),
      );
      bids += 1;
    }
  }
  input.log(
    `[seed] demo market: ${listed.length} offerings listed and approved, ${bids} bids, in ${Date.now() - started} ms`,
  );
  return listed.length;
}
