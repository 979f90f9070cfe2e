/// <reference lib="dom" />
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { listingContract } from '../functions/offerings/testing/listing';
import { DEV_PORTS, TWIN_NAMES } from '../infra/local/twin';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../infra/local/support';
import { jsErrors, newPage, screenshot, useBrowser, watch401 } from './browser';
import { signUpAndLogIn } from './outbox';
import { sellerHelpers } from './sellers';

/**
 * An auction in Chromium against `npm start` (issue 13): two bidders in two browsers (a phone and
 * a desktop) bid on one lot from its page; each sees the other's bid and the soft-close extension
 * without reloading; the auction closes (the twin's auctionSweep job starts its close), the
 * winner's saved card is charged off session, and the winner finds the copy in My tokens and the
 * auction in My Bids as won. The seller lists through the API and support approves; the bidders
 * save a card on Stripe's (the twin's) hosted page and a delivery address through the API.
 * Reloads on the way: the first bidder's item page after the bids still shows the panel (her bid's
 * status, the current price and minimum next bid, the countdown); after the close the winner's
 * item page shows the copies he got (getassignedtokens, paid), and My Bids still says Won; no
 * page throws, and no call is refused with a 401.
 *
 * Time: a listing must end at least an hour ahead, so the journey moves the lot's end (in the
 * twin's DynamoDB, as a clock would) to four minutes from now before bidding, and into the past to
 * close it; everything else is the product as it runs.
 */
const baseUrl = inject('baseUrl');
const browser = useBrowser();
const { accessToken, api, becomeSeller, listApproved, makeItem } = sellerHelpers(baseUrl);

const doc = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    region: TWIN_REGION,
    endpoint: `http://localhost:${DEV_PORTS.dynamodb}`,
    credentials: TWIN_CREDENTIALS,
  }),
);
const lotKey = (offeringId: string) => ({ pk: `AUCTION#${offeringId}`, sk: 'LOT' });
/** The lot's place in the sweeper's list of lots not closed, by end. */
const liveMarkerKey = (offeringId: string) => ({ pk: `AUCTION#${offeringId}`, sk: 'LIVE' });

/**
 * Moves the lot's end (the twin's clock, for this journey), and its place in the sweeper's list
 * (which a real extension leaves for the sweeper to move on, and nothing moves back).
 */
async function moveEnd(offeringId: string, endAt: Date, softCloseMs?: number): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const { Item: lot } = await doc.send(
      new GetCommand({
        TableName: TWIN_NAMES.table,
        Key: lotKey(offeringId),
        ConsistentRead: true,
      }),
    );
    if (lot === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    const auction = lot.auction as Record<string, unknown>;
    const end = endAt.toISOString();
    try {
      await doc.send(
        new PutCommand({
          TableName: TWIN_NAMES.table,
          Item: {
            ...lot,
            auction: {
              ...auction,
              end_at: end,
              ...(softCloseMs === undefined ? {} : { soft_close_ms: softCloseMs }),
            },
            version: (lot.version as number) + 1,
          },
          ConditionExpression: 'version = :v',
          ExpressionAttributeValues: { ':v': lot.version },
        }),
      );
    } catch {
      // A bid wrote the lot meanwhile: read it again.
      continue;
    }
    await doc.send(
      new UpdateCommand({
        TableName: TWIN_NAMES.table,
        Key: liveMarkerKey(offeringId),
        UpdateExpression: 'SET end_at = :end, gsi3sk = :sort',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':end': end, ':sort': `${end}#${offeringId}` },
      }),
    );
    return;
  }
  throw new Error(`could not move the end of ${offeringId}`);
}

/** The page settled with no error state in sight (no "Try again", no load failure). */
async function expectNoErrorState(page: Page, label: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  expect(await page.getByRole('button', { name: 'Try again' }).count(), label).toBe(0);
  expect(
    await page.getByText(/could not be loaded|couldn't load|Unexpected Error/i).count(),
    label,
  ).toBe(0);
  expect(await page.getByText('Your session has expired').count(), label).toBe(0);
}

/**
 * Checks nothing is wider than the screen, then shoots the page from its top (a full-page capture
 * of a scrolled page draws the fixed bars, and the skip link hidden above them, in the middle)
 * and the offering's panel alone, both in e2e/artifacts/ (`<name>.png`, `<name>-panel.png`).
 */
async function shootPanel(page: Page, panel: Locator, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(
    width,
  );
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
  const box = await panel.boundingBox();
  if (box === null) throw new Error(`the panel of ${name} is not on the page`);
  const dir = join(import.meta.dirname, 'artifacts');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}-panel.png`), fullPage: true, clip: box });
}

/** A bidder: signed up, a saved 4242 card and a saved delivery address. */
async function bidder(prefix: string, viewport: 'phone' | 'desktop') {
  const session = await newPage(browser(), viewport);
  const user = await signUpAndLogIn(session.page, baseUrl, prefix);
  const token = await accessToken(session.page);
  const setup = await api<{ url: string }>(token, 'POST', '/payment-gateway/create-setup-intent', {
    type: 'card',
  });
  await session.page.goto(setup.url);
  await session.page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await session.page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await session.page.getByLabel('CVC').fill('123');
  await session.page.getByLabel('Name on card').fill(`${prefix} Bidder`);
  await session.page.getByRole('button', { name: 'Save card' }).click();
  await session.page.waitForURL(`${baseUrl}/account/settings/paymentmethod`, { timeout: 20_000 });
  await session.page
    .getByRole('listitem', { name: 'Visa •••• 4242' })
    .getByText('Default')
    .waitFor();
  await api(token, 'POST', `/users/${user.id}/addaddress`, {
    address: { ...deliveryAddress(prefix), default: true },
  });
  return { ...session, user, token };
}
type Bidder = Awaited<ReturnType<typeof bidder>>;

/** Where a bidder's won item goes (their saved default address, and a bid's `postaladdress`). */
function deliveryAddress(prefix: string) {
  return {
    country: 'ES',
    fullname: `${prefix} Bidder`,
    line1: 'Calle del Puerto 7',
    line2: null,
    postalcode: '39004',
    city: 'Santander',
    stateprovince: 'Cantabria',
    instructions: null,
  };
}

/**
 * A seller's auction of one copy of a new item at 10.00, approved by support, ending in 2 hours:
 * `deposit` per copy at the close when given, else the full price.
 */
async function listedAuction(title: string, deposit: number | null) {
  const seller = await newPage(browser(), 'desktop');
  const sellerUser = await signUpAndLogIn(seller.page, baseUrl, 'lot');
  const sellerToken = await accessToken(seller.page);
  await becomeSeller(seller.page, sellerToken);
  const itemId = await makeItem(sellerToken, sellerUser.id, title, 1);
  const offeringId = await listApproved(
    browser(),
    sellerToken,
    sellerUser.id,
    listingContract(itemId, {
      type: 'auction',
      price: 1000,
      payment_mode: deposit === null ? 'fullprice' : 'deposit',
      deposit,
      end_at: new Date(Date.now() + 2 * 3_600_000).toISOString(),
    }),
  );
  return { seller, sellerUser, itemId, offeringId };
}

describe('an auction in Chromium', () => {
  it('two bidders see each other live and the extension; it closes; the winner has the copy', async () => {
    const title = `Harbour auction ${Date.now().toString(36)}`;
    // A deposit auction: 3.00 per copy at the close, the rest when the seller is ready.
    const { seller, sellerUser, itemId, offeringId } = await listedAuction(title, 300);

    const ana = await bidder('ana', 'phone');
    const ben = await bidder('ben', 'desktop');
    // Four minutes left and a five-minute soft close: the first bid that takes the lot extends it.
    await moveEnd(offeringId, new Date(Date.now() + 4 * 60_000), 5 * 60_000);

    const refused = { ana: watch401(ana.page), ben: watch401(ben.page) };
    for (const who of [ana, ben]) {
      await who.page.goto(`${baseUrl}/market/product/${itemId}`);
      await who.page.getByRole('heading', { name: title }).first().waitFor({ timeout: 20_000 });
      await who.page.getByRole('button', { name: 'Place bid' }).waitFor({ timeout: 20_000 });
    }
    await screenshot(ben.page, 'auction-open-1280');
    // The form says what a win charges to the card, and when.
    for (const who of [ana, ben]) {
      await who.page
        .getByText(
          /^Nothing is charged now\. If you win, a deposit of €3[.,]00 per copy is charged to this card when the auction ends, and the rest of your price when the seller is ready\.$/,
        )
        .waitFor();
    }

    // Ana bids the minimum (prefilled): she is winning, and the end moves.
    await expect
      .poll(() => ana.page.getByLabel('Your bid per copy').inputValue())
      .toMatch(/^10([.,]00)?$/);
    await ana.page.getByRole('button', { name: 'Place bid' }).click();
    await ana.page.getByText('Your bid is in: you are winning.').waitFor({ timeout: 15_000 });
    await screenshot(ana.page, 'auction-ana-winning-375');

    // Ben, without reloading, sees Ana's bid, the new minimum and the extension.
    await ben.page.getByText(ana.user.nick).first().waitFor({ timeout: 15_000 });
    await ben.page.getByText('Extended').first().waitFor({ timeout: 15_000 });
    await expect
      .poll(() => ben.page.getByLabel('Your bid per copy').inputValue(), { timeout: 15_000 })
      .toMatch(/^10[.,]50$/);
    await screenshot(ben.page, 'auction-ben-sees-ana-1280');
    await ben.page.getByRole('button', { name: 'Place bid' }).click();
    await ben.page.getByText('Your bid is in: you are winning.').waitFor({ timeout: 15_000 });

    // Ana, without reloading, is outbid.
    await ana.page.getByText('You are outbid: bid again to win.').waitFor({ timeout: 15_000 });
    await ana.page.getByText(ben.user.nick).first().waitFor();
    await screenshot(ana.page, 'auction-ana-outbid-375');

    // Ana reloads her item page: the panel comes back as it stood, from the server alone.
    await ana.page.reload();
    await ana.page.getByRole('heading', { name: title }).first().waitFor({ timeout: 20_000 });
    const anaPanel = ana.page.getByRole('article', { name: `Offering by @${sellerUser.nick}` });
    const anaBid = anaPanel.getByRole('region', { name: 'Your bid' });
    await anaBid.getByText('You are outbid: bid again to win.').waitFor({ timeout: 20_000 });
    await anaBid.getByText('Outbid', { exact: true }).waitFor();
    const summary = anaPanel.getByRole('region', { name: 'Auction' });
    const currentPrice = summary.getByText('Current price').locator('xpath=..');
    await expect.poll(() => currentPrice.innerText()).toMatch(/10[.,]50/);
    const minimumNext = summary.getByText('Minimum next bid').locator('xpath=..');
    await expect.poll(() => minimumNext.innerText()).toMatch(/11[.,]00/);
    await summary.getByText('Extended').waitFor();
    // The countdown runs (minutes and seconds left, ticking).
    const timer = summary.getByRole('timer', { name: 'Time left' });
    const firstTick = await timer.innerText();
    expect(firstTick).toMatch(/^\d+ min \d+ s$/);
    await expect.poll(() => timer.innerText(), { timeout: 5_000 }).not.toBe(firstTick);
    // Her bid stands, outbid: the form raises it (title and button alike), from the minimum next bid.
    const anaForm = ana.page.getByRole('form', { name: 'Raise your bid' });
    await anaForm.waitFor();
    await anaForm.getByRole('button', { name: 'Raise my bid' }).waitFor();
    await expect
      .poll(() => ana.page.getByLabel('Your bid per copy').inputValue())
      .toMatch(/^11[.,]00$/);
    await anaPanel.getByRole('list', { name: 'Bids (2)' }).waitFor();
    await expectNoErrorState(ana.page, 'Ana reloaded her item page');
    await shootPanel(ana.page, anaPanel, 'auction-ana-reloaded-375');
    // Ben reloads too: winning, his form now raises his maximum.
    await ben.page.reload();
    const benPanel = ben.page.getByRole('article', { name: `Offering by @${sellerUser.nick}` });
    await benPanel
      .getByRole('region', { name: 'Your bid' })
      .getByText('You are winning.')
      .waitFor({ timeout: 20_000 });
    await ben.page.getByRole('form', { name: 'Raise your maximum' }).waitFor();
    await expectNoErrorState(ben.page, 'Ben reloaded his item page');
    await shootPanel(ben.page, benPanel, 'auction-ben-reloaded-1280');
    expect(jsErrors(ana.page)).toEqual([]);
    expect(jsErrors(ben.page)).toEqual([]);

    // The end passes: the twin's auctionSweep job starts the close (as every minute).
    await moveEnd(offeringId, new Date(Date.now() - 3 * 60_000));
    const sweep = await fetch(`${baseUrl}/dev/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'auctionSweep' }),
    });
    expect(sweep.status).toBe(200);
    await ben.page.getByText('You won.').waitFor({ timeout: 60_000 });
    await ben.page.getByText('Closed').first().waitFor({ timeout: 60_000 });
    await ana.page.getByText('You did not win this auction.').waitFor({ timeout: 60_000 });
    // Without reloading, Ben's panel lists the copy he got (read again on the result).
    await ben.page.getByRole('list', { name: /^Your copy: #\d+$/ }).waitFor({ timeout: 30_000 });
    // Ana, who lost, is not asked for copies.
    expect(await ana.page.getByText(/^Your cop(y|ies): /).count()).toBe(0);
    await screenshot(ben.page, 'auction-ben-won-1280');
    // After a reload the ended auction has left the item page; My Bids keeps Ana's result.
    await ana.page.goto(`${baseUrl}/market/preview/mybids?status=closed`);
    await ana.page.getByText(title).first().waitFor({ timeout: 20_000 });
    await ana.page.getByText('Not won').first().waitFor();
    await screenshot(ana.page, 'auction-ana-mybids-375');

    // Ben opens the auction (as My Bids links it) and reloads: the copy he got, paid at the close.
    await ben.page.goto(`${baseUrl}/market/product/${itemId}?offering=${offeringId}`);
    await ben.page.reload();
    const wonPanel = ben.page.getByRole('article', { name: `Offering by @${sellerUser.nick}` });
    const benBid = wonPanel.getByRole('region', { name: 'Your bid' });
    await benBid.getByText('You won.').waitFor({ timeout: 20_000 });
    const benCopies = benBid.getByRole('list', { name: /^Your copy: #\d+$/ });
    await benCopies.waitFor({ timeout: 20_000 });
    const heading = await benBid.getByRole('heading', { name: /^Your copy: #\d+$/ }).innerText();
    const serial = /#(\d+)$/.exec(heading)?.[1];
    expect(serial).toBeDefined();
    const copy = benCopies.getByRole('listitem', { name: `Copy #${serial}` });
    // The deposit was charged at the close; the rest is due when the seller is ready.
    await copy.getByText('Deposit paid', { exact: true }).waitFor({ timeout: 30_000 });
    await copy.getByText(/^€7[.,]50 more when the seller is ready$/).waitFor();
    expect(await copy.getByRole('link', { name: 'View order' }).getAttribute('href')).toMatch(
      /^\/account\/orders\/oR/,
    );
    await expectNoErrorState(ben.page, 'Ben reloaded the won auction');
    await shootPanel(ben.page, wonPanel, 'auction-ben-copies-1280');
    // The same panel on a phone.
    await ben.page.setViewportSize({ width: 375, height: 812 });
    await benCopies.waitFor();
    await shootPanel(ben.page, wonPanel, 'auction-ben-copies-375');
    // On a phone that drops the copies' call (every try): the panel says so and offers to try
    // again, the rest of the panel still there; back online, Try again lists the copy.
    const copiesCall = '**/offering/getassignedtokens';
    await ben.page.route(copiesCall, (route) => route.abort('internetdisconnected'));
    await ben.page.reload();
    const failed = benBid.getByRole('alert').filter({ hasText: 'Your copies could not be loaded' });
    await failed.waitFor({ timeout: 30_000 });
    await benBid.getByText('You won.').waitFor();
    await shootPanel(ben.page, wonPanel, 'auction-ben-copies-failed-375');
    await ben.page.unroute(copiesCall);
    await failed.getByRole('button', { name: 'Try again' }).click();
    await benCopies.getByRole('listitem', { name: `Copy #${serial}` }).waitFor({ timeout: 20_000 });
    expect(await failed.count()).toBe(0);
    await ben.page.setViewportSize({ width: 1280, height: 800 });

    // The winner's card was charged the deposit at the close: the copy is Ben's.
    await ben.page.goto(`${baseUrl}/account/wallet/mytokens`);
    await ben.page.getByText(title).first().waitFor({ timeout: 20_000 });
    await screenshot(ben.page, 'auction-ben-mytokens-1280');
    await ben.page.goto(`${baseUrl}/market/preview/mybids?status=closed`);
    await ben.page.getByText(title).first().waitFor({ timeout: 20_000 });
    await ben.page.getByText('Won', { exact: true }).first().waitFor();
    await screenshot(ben.page, 'auction-ben-mybids-1280');
    // Reloaded, My Bids still says Won.
    await ben.page.reload();
    await ben.page.getByText(title).first().waitFor({ timeout: 20_000 });
    await ben.page.getByText('Won', { exact: true }).first().waitFor({ timeout: 20_000 });
    await expectNoErrorState(ben.page, 'Ben reloaded My Bids');
    await screenshot(ben.page, 'auction-ben-mybids-reloaded-1280');

    expect(refused.ana).toEqual([]);
    expect(refused.ben).toEqual([]);

    expect(jsErrors(ana.page)).toEqual([]);
    expect(jsErrors(ben.page)).toEqual([]);
    await ana.context.close();
    await ben.context.close();
    await seller.context.close();
  }, 300_000);

  it('a lot with more bidders than it lists says how many lower bids are not listed', async () => {
    const title = `Crowded auction ${Date.now().toString(36)}`;
    const { seller, itemId, offeringId } = await listedAuction(title, null);
    // Five bidders, each bidding the minimum in turn (10.00, 10.50, … 12.00): the lot lists the
    // winner and the three closest to them (CONTENDING_MARGIN); the lowest is outbid for good.
    const names = ['cai', 'dee', 'eli', 'fay', 'gus'] as const;
    const crowd: Bidder[] = [];
    for (const [position, name] of names.entries()) {
      const who = await bidder(name, position === 0 ? 'phone' : 'desktop');
      await api(who.token, 'POST', `/users/${who.user.id}/bid/create`, {
        offeringid: offeringId,
        bidprice: 1_000 + position * 50,
        currency: 'EUR',
        quantity: 1,
        postaladdress: deliveryAddress(name),
      });
      crowd.push(who);
    }
    const cai = crowd[0] as Bidder;
    const gus = crowd[4] as Bidder;
    const guest = await newPage(browser(), 'phone');
    const gusNick = `@${gus.user.nick}`;
    // Gus (winning, on a desktop) and a guest (on a phone) read the four highest bids, and how
    // many are left out: Cai's 10.00 is not among them.
    for (const [who, label] of [
      [gus, 'gus-1280'],
      [guest, 'guest-375'],
    ] as const) {
      await who.page.goto(`${baseUrl}/market/product/${itemId}`);
      await who.page.getByRole('heading', { name: title }).first().waitFor({ timeout: 20_000 });
      const list = who.page.getByRole('list', { name: /^Bids \(\d+\)$/ });
      await list.waitFor({ timeout: 20_000 });
      await who.page
        .getByText('1 lower bid is not listed: it is outbid.', { exact: true })
        .waitFor({ timeout: 20_000 });
      expect(await list.getByRole('listitem').count()).toBe(4);
      await list.getByText(gusNick).first().waitFor();
      // A full-price auction charges the winner's card at its end.
      await who.page.getByText('Full price when the auction ends', { exact: true }).waitFor();
      expect(await list.getByText(`@${cai.user.nick}`).count()).toBe(0);
      await expectNoErrorState(who.page, `${label} reads the crowded lot`);
      await screenshot(who.page, `auction-crowded-${label}`);
      expect(jsErrors(who.page)).toEqual([]);
    }
    // Cai, on a phone, sees their own bid listed (outbid) with the four: nothing is left out.
    await cai.page.goto(`${baseUrl}/market/product/${itemId}`);
    const caiList = cai.page.getByRole('list', { name: /^Bids \(\d+\)$/ });
    await caiList.waitFor({ timeout: 20_000 });
    await caiList.getByText(`@${cai.user.nick} (you)`).waitFor({ timeout: 20_000 });
    expect(await caiList.getByRole('listitem').count()).toBe(5);
    expect(await cai.page.getByText(/lower bids? (is|are) not listed/).count()).toBe(0);
    await cai.page
      .getByRole('region', { name: 'Your bid' })
      .getByText('You are outbid: bid again to win.')
      .waitFor();
    await expectNoErrorState(cai.page, 'Cai reads the crowded lot');
    await screenshot(cai.page, 'auction-crowded-cai-375');
    expect(jsErrors(cai.page)).toEqual([]);
    for (const who of [...crowd, guest, seller]) await who.context.close();
  }, 300_000);
});
