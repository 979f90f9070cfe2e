import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createOfferingBodySchema, listingViolations } from '../../shared/schemas/offerings';
import { DEFAULT_SWITCHES, PRODUCT_TYPES } from '../../shared/switches';
import { seedProfiles } from './seed-data';
import {
  addressOf,
  COUNTRY,
  DEMO_LISTINGS,
  demoContract,
  demoListingsFor,
  renderItemImage,
  ticketExpiryOf,
} from './seed-market';

/*
 * The demo market's data (seed-market.ts), checked against the rules the listing and bid calls
 * apply, so `npm start` never fails half-way through seeding it. The seeding itself runs on every
 * fresh `npm start`, and the browser journeys start that way.
 */
const ITEM = '01KAXD000000000000000000AB';
const NOW = Date.parse('2026-11-26T10:00:00.000Z');
const profiles = new Map(seedProfiles().map((profile) => [profile.record.nick, profile]));

describe('the demo market', () => {
  it.each(DEMO_LISTINGS.map((demo) => [demo.title, demo] as const))(
    '%s: a listing the create call accepts',
    (_title, demo) => {
      const contract = demoContract(demo, ITEM, NOW);
      expect(createOfferingBodySchema.safeParse({ offering: contract }).success).toBe(true);
      expect(
        listingViolations(contract, {
          now: new Date(NOW),
          product_type: demo.product_type,
          ticket_expires_at: demo.product_type === 'ticket' ? ticketExpiryOf(demo, NOW) : null,
          free_copies: demo.copies,
          qr_copies: 0,
          is_creator: true,
          transferable: true,
        }),
      ).toEqual([]);
    },
  );

  it('lists for demo sellers, and bids come from other demo sellers who can receive the item', () => {
    for (const demo of DEMO_LISTINGS) {
      expect(profiles.has(demo.seller), demo.seller).toBe(true);
      for (const bid of demo.bids ?? []) {
        const bidder = profiles.get(bid.bidder);
        expect(bidder, bid.bidder).toBeDefined();
        expect(bid.bidder).not.toBe(demo.seller);
        expect(demo.listing.type).toBe('auction');
        if (demo.product_type === 'physical' && bidder !== undefined) {
          expect(demo.countries).toContain(addressOf(bidder).country);
        }
        if ((bid.quantity ?? 1) > 1) expect(demo.listing.multi_copy).toBe(true);
      }
    }
    for (const nick of profiles.keys()) expect(COUNTRY[nick], nick).toBeDefined();
  });

  it('gives this deployment (physical products only) both kinds of offering, a reserve, a multi-copy lot, a lot without bids and one ending soon', () => {
    const listings = demoListingsFor(DEFAULT_SWITCHES.mintableTypes);
    expect(new Set(listings.map((demo) => demo.product_type))).toEqual(new Set(['physical']));
    expect(new Set(listings.map((demo) => demo.listing.type))).toEqual(
      new Set(['fixed', 'auction']),
    );
    const auctions = listings.filter((demo) => demo.listing.type === 'auction');
    expect(auctions.some((demo) => (demo.listing.reserve_price ?? null) !== null)).toBe(true);
    expect(auctions.some((demo) => demo.listing.multi_copy === true)).toBe(true);
    expect(auctions.some((demo) => (demo.bids ?? []).length === 0)).toBe(true);
    expect(Math.min(...auctions.map((demo) => demo.endsIn))).toBeLessThanOrEqual(6 * 3_600_000);
  });

  it('has listings of every product type for deployments that mint them, and none of a type they do not', () => {
    expect(new Set(DEMO_LISTINGS.map((demo) => demo.product_type))).toEqual(new Set(PRODUCT_TYPES));
    expect(demoListingsFor(['ticket']).map((demo) => demo.product_type)).toEqual(['ticket']);
    expect(demoListingsFor([])).toEqual([]);
  });

  it('draws each item a 1200 px WebP image and a 400 px thumbnail', async () => {
    const [demo] = DEMO_LISTINGS;
    if (demo === undefined) throw new Error('no demo listing');
    const image = await renderItemImage(demo);
    expect(await sharp(image.full).metadata()).toMatchObject({
      format: 'webp',
      width: 1200,
      height: 1200,
    });
    expect(await sharp(image.thumb).metadata()).toMatchObject({
      format: 'webp',
      width: 400,
      height: 400,
    });
  });
});
