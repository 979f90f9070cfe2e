/// <reference lib="dom" />
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { DEV_PORTS, TWIN_NAMES } from '../infra/local/twin';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../infra/local/support';
import { jsErrors, newPage, screenshot, useBrowser } from './browser';
import { logInAsSupport, signUpAndLogIn } from './outbox';
import { sellerHelpers } from './sellers';

/**
 * An auction in Chromium against `npm start` (issue 13): two bidders in two browsers (a phone and
 * a desktop) bid on one lot from its page; each sees the other's bid and the soft-close extension
 * without reloading; the auction closes (the twin's auctionSweep job starts its close), the
 * winner's saved card is charged off session, and the winner finds the copy in My tokens and the
 * auction in My Bids as won. The seller lists through the API and support approves; the bidders
 * save a card on Stripe's (the twin's) hosted page and a delivery address through the API.
 *
 * Time: a listing must end at least an hour ahead, so the journey moves the lot's end (in the
 * twin's DynamoDB, as a clock would) to four minutes from now before bidding, and into the past to
 * close it; everything else is the product as it runs.
 */
const baseUrl = inject('baseUrl');
const browser = useBrowser();
const { accessToken, api, becomeSeller, makeItem } = sellerHelpers(baseUrl);

const doc = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    region: TWIN_REGION,
    endpoint: `http://localhost:${DEV_PORTS.dynamodb}`,
    credentials: TWIN_CREDENTIALS,
  }),
);
const lotKey = (offeringId: string) => ({ pk: `AUCTION#${offeringId}`, sk: 'LOT' });

/** Moves the lot's end (the twin's clock, for this journey); answers the new end. */
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
            gsi3sk: `${end}#${offeringId}`,
            version: (lot.version as number) + 1,
          },
          ConditionExpression: 'version = :v',
          ExpressionAttributeValues: { ':v': lot.version },
        }),
      );
      return;
    } catch {
      // A bid wrote the lot meanwhile: read it again.
    }
  }
  throw new Error(`could not move the end of ${offeringId}`);
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
    address: {
      country: 'ES',
      fullname: `${prefix} Bidder`,
      line1: 'Calle del Puerto 7',
      line2: null,
      postalcode: '39004',
      city: 'Santander',
      stateprovince: 'Cantabria',
      instructions: null,
      default: true,
    },
  });
  return { ...session, user, token };
}

describe('an auction in Chromium', () => {
  it('two bidders see each other live and the extension; it closes; the winner has the copy', async () => {
    const title = `Harbour auction ${Date.now().toString(36)}`;
    const seller = await newPage(browser(), 'desktop');
    const sellerUser = await signUpAndLogIn(seller.page, baseUrl, 'lot');
    const sellerToken = await accessToken(seller.page);
    await becomeSeller(seller.page, sellerToken);
    const itemId = await makeItem(sellerToken, sellerUser.id, title, 1);
    const listed = await api<{ offeringId: string }>(
      sellerToken,
      'POST',
      `/users/${sellerUser.id}/offering/create`,
      {
        offering: {
          item_id: itemId,
          type: 'auction',
          copies: 1,
          currency: 'EUR',
          price: 1000,
          payment_mode: 'fullprice',
          deposit: null,
          buy_price: null,
          reserve_price: null,
          multi_copy: false,
          start_at: new Date().toISOString(),
          end_at: new Date(Date.now() + 2 * 3_600_000).toISOString(),
          categories: ['art'],
          notes: '',
          terms: 'None',
          access: 'public',
          invited: [],
          collection_id: null,
        },
      },
      `e2e-auction-${Date.now()}`,
    );
    const offeringId = listed.offeringId;
    for (let tries = 0; ; tries += 1) {
      const status = await api<{ step: string }>(
        sellerToken,
        'POST',
        `/users/${sellerUser.id}/offering/create/status`,
        { offeringId },
      );
      if (status.step === 'done') break;
      if (tries > 100) throw new Error(`the listing stayed at ${status.step}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const support = await newPage(browser(), 'desktop');
    await logInAsSupport(support.page, baseUrl);
    await api(await accessToken(support.page), 'POST', `/admin/offerings/${offeringId}/validate`, {
      decision: 'approve',
    });
    await support.context.close();

    const ana = await bidder('ana', 'phone');
    const ben = await bidder('ben', 'desktop');
    // Four minutes left and a five-minute soft close: the first bid that takes the lot extends it.
    await moveEnd(offeringId, new Date(Date.now() + 4 * 60_000), 5 * 60_000);

    for (const who of [ana, ben]) {
      await who.page.goto(`${baseUrl}/market/product/${itemId}`);
      await who.page.getByRole('heading', { name: title }).first().waitFor({ timeout: 20_000 });
      await who.page.getByRole('button', { name: 'Place bid' }).waitFor({ timeout: 20_000 });
    }
    await screenshot(ben.page, 'auction-open-1280');

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
    await screenshot(ben.page, 'auction-ben-won-1280');
    // After a reload the ended auction has left the item page; My Bids keeps Ana's result.
    await ana.page.goto(`${baseUrl}/market/preview/mybids?status=closed`);
    await ana.page.getByText(title).first().waitFor({ timeout: 20_000 });
    await ana.page.getByText('Not won').first().waitFor();
    await screenshot(ana.page, 'auction-ana-mybids-375');

    // The winner's card was charged at the close: the copy is Ben's.
    await ben.page.goto(`${baseUrl}/account/wallet/mytokens`);
    await ben.page.getByText(title).first().waitFor({ timeout: 20_000 });
    await screenshot(ben.page, 'auction-ben-mytokens-1280');
    await ben.page.goto(`${baseUrl}/market/preview/mybids?status=closed`);
    await ben.page.getByText(title).first().waitFor({ timeout: 20_000 });
    await ben.page.getByText('Won').first().waitFor();
    await screenshot(ben.page, 'auction-ben-mybids-1280');

    expect(jsErrors(ana.page)).toEqual([]);
    expect(jsErrors(ben.page)).toEqual([]);
    await ana.context.close();
    await ben.context.close();
    await seller.context.close();
  });
});
