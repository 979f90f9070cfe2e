import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ItemDetail, ItemSummary } from '@shared/schemas/items';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configFixture, configWithAuthFixture } from '../../test/fixtures';
import {
  ownProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import { deferred, jsonResponse, mockApi, renderRoute } from '../../test/utils';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const ok = (data: unknown, status = 200) => jsonResponse({ data }, status);
const fail = (code: string, status = 500) =>
  jsonResponse({ error: { code, message: code, requestId: 't' } }, status);

const USER = '/api/users/user-1';
const MINT = '/my-tokens/mint-form';

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  // Amplify holds tokens in this browser; each test's fetchAuthSession says whether they are valid.
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  amplify.signOut.mockResolvedValue(undefined);
});

const limits = (reached = false) => ({
  limitCapacity: 100 * 1024 * 1024,
  overlay: 0,
  firestore: 5 * 1024 * 1024,
  mints: { used: reached ? 5 : 1, limit: 5 },
  reached,
});

function summary(overrides: Partial<ItemSummary> = {}): ItemSummary {
  return {
    id: 'item-1',
    product_type: 'physical',
    title: 'Stoneware mug',
    symbol: 'mug',
    image: { url: '/media/mug.webp', thumb: '/media/mug-t.webp' },
    copies: 3,
    issuer_id: 'user-1',
    issuer_nick: 'ana',
    collection_id: null,
    status: 'available',
    created_at: '2026-11-01T10:00:00.000Z',
    owned: 2,
    visible: true,
    ...overrides,
  };
}

function detail(overrides: Partial<ItemDetail> = {}): ItemDetail {
  return {
    ...summary({ owned: null, visible: null }),
    description: 'Hand-thrown, 300 ml.',
    images: [
      { url: '/media/mug.webp', thumb: '/media/mug-t.webp' },
      { url: '/media/mug-2.webp', thumb: '/media/mug-2-t.webp' },
    ],
    legal_terms: 'None',
    transferable: true,
    royalty: null,
    beneficiary: null,
    ticket: null,
    shipping: { mode: 'delivery', countries: ['ES', 'PT'] },
    contact_email: 'ana@example.com',
    issuer: {
      legal_form: 'Sole trader',
      organisation: 'Ana Ceramics',
      country: 'ES',
      email: 'ana@example.com',
      governing_law: 'Spanish law',
      jurisdiction: 'Madrid',
    },
    file: { name: 'care-guide.pdf', size: 1000, type: 'application/pdf' },
    can_download: false,
    copies_page: {
      items: [
        {
          nftuniqueid: 'item-1#1',
          index: 1,
          owner_id: 'user-1',
          owner_nick: 'ana',
          owner_since: '2026-11-01T10:00:00.000Z',
          status: 'available',
        },
        {
          nftuniqueid: 'item-1#2',
          index: 2,
          owner_id: 'user-2',
          owner_nick: 'bruno',
          owner_since: '2026-11-02T11:30:00.000Z',
          status: 'available',
        },
      ],
      nextCursor: null,
    },
    ...overrides,
  };
}

type Handlers = Parameters<typeof mockApi>[0];

function signedIn(extra: Handlers = {}, profile = ownProfileFixture()) {
  return mockApi({
    '/api/config': () => ok(configWithAuthFixture()),
    [`${USER}/user-profile`]: () => ok(profile),
    [`${USER}/get-user-limits`]: () => ok(limits()),
    [`${USER}/token/findcollections`]: () => ok({ items: [] }),
    ...extra,
  });
}

/** Handlers of the image upload: ticket, storage, confirmation. */
const uploadHandlers: Handlers = {
  [`${USER}/store-token-images`]: () =>
    ok({
      upload_id: 'up-1',
      post: { url: 'http://localhost/storage', fields: { key: 'k', policy: 'p' } },
      expires_at: '2026-12-01T00:00:00.000Z',
    }),
  '/storage': () => new Response(null, { status: 204 }),
  [`${USER}/store-token-images/confirm`]: () =>
    ok({
      upload_id: 'up-1',
      kind: 'image',
      bytes: 1000,
      image: { url: '/media/up-1.webp', thumb: '/media/up-1-t.webp' },
      file: null,
    }),
};

const form = () => screen.findByRole('form', { name: 'Create item' });

/** Types a value at once (paste): the form's rules are tested elsewhere keystroke by keystroke. */
async function enter(element: HTMLElement, text: string) {
  await userEvent.click(element);
  await userEvent.paste(text);
}

async function fillValidForm() {
  await form();
  await enter(screen.getByRole('textbox', { name: /^Title/ }), 'Stoneware mug');
  await enter(screen.getByRole('textbox', { name: /^Description/ }), 'Hand-thrown.');
  await enter(screen.getByRole('textbox', { name: /^Symbol/ }), 'mug');
  const png = new File(['x'], 'mug.png', { type: 'image/png' });
  await userEvent.upload(screen.getByLabelText('Choose images'), png);
  await screen.findByRole('listitem', { name: 'mug.png' });
  await waitFor(() =>
    expect(screen.queryByLabelText(/Uploading mug.png|Checking mug.png/)).toBeNull(),
  );
  await enter(screen.getByRole('combobox', { name: 'Delivery countries' }), 'Spain');
  await userEvent.click(await screen.findByRole('option', { name: 'Spain (ES)' }));
  await userEvent.click(screen.getByRole('switch', { name: 'No legal terms (None)' }));
  await enter(screen.getByRole('textbox', { name: /^Organisation/ }), 'Ana Ceramics');
  await enter(screen.getByRole('textbox', { name: /^Legal form/ }), 'Sole trader');
  await userEvent.selectOptions(screen.getByRole('combobox', { name: /^Issuer country/ }), 'ES');
  await enter(screen.getByRole('textbox', { name: /^Issuer e-mail/ }), 'ana@example.com');
  await enter(screen.getByRole('textbox', { name: /^Governing law/ }), 'Spanish law');
  await enter(screen.getByRole('textbox', { name: /^Jurisdiction/ }), 'Madrid');
}

const createCalls = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([input]) => String(input).includes('/token/create'));

describe('mint form guards', () => {
  it('sends a guest home', async () => {
    mockApi({ '/api/config': () => ok(configFixture()) });
    const { router } = renderRoute(MINT);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('sends an unverified user home', async () => {
    signedIn({}, ownProfileFixture({ is_verified: false }));
    const { router } = renderRoute(MINT);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('sends an individual home when only companies mint', async () => {
    signedIn({
      '/api/config': () =>
        ok({
          ...configWithAuthFixture(),
          switches: configFixture({ companyOnlyMinting: true }).switches,
        }),
    });
    const { router } = renderRoute(MINT);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});

describe('mint form', () => {
  it('offers only the mintable types, counts characters and hides the royalty for physical', async () => {
    signedIn();
    renderRoute(MINT);
    await form();
    expect(screen.getByRole('radio', { name: 'Physical' })).toHaveProperty('checked', true);
    const digital = screen.getByRole('radio', { name: /Digital/ });
    expect(digital).toHaveProperty('disabled', true);
    expect(screen.getAllByText('Not available in this marketplace yet')).toHaveLength(3);
    expect(screen.queryByRole('radio', { name: /Investment/i })).toBeNull();
    expect(screen.queryByRole('spinbutton', { name: /Royalty/ })).toBeNull();
    expect(screen.getByText('0/50')).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: /^Title/ }), 'Mug');
    expect(screen.getByText('3/50')).toBeTruthy();
    expect(screen.getByText('0/300')).toBeTruthy();
  });

  it('shows the royalty for a resellable digital item, and hides it when resale is off', async () => {
    signedIn({
      '/api/config': () =>
        ok({
          ...configWithAuthFixture(),
          switches: configFixture({ mintableTypes: ['physical', 'digital'] }).switches,
        }),
    });
    renderRoute(MINT);
    await form();
    await userEvent.click(screen.getByRole('radio', { name: 'Digital' }));
    expect(screen.getByRole('spinbutton', { name: /Royalty/ })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Shipping' })).toBeNull();
    await userEvent.click(screen.getByRole('switch', { name: 'Resale allowed' }));
    expect(screen.queryByRole('spinbutton', { name: /Royalty/ })).toBeNull();
  });

  it('asks a physical item for its shipping and a main image', async () => {
    signedIn();
    renderRoute(MINT);
    await form();
    await userEvent.click(screen.getByRole('button', { name: 'Create item' }));
    expect(await screen.findByText('Choose at least one delivery country.')).toBeTruthy();
    expect(screen.getByText('A main image is required.')).toBeTruthy();
    await userEvent.click(screen.getByRole('radio', { name: 'Pickup' }));
    expect(screen.getByRole('textbox', { name: /Pickup instructions/ })).toBeTruthy();
  });

  it('refuses an image of the wrong type before uploading it', async () => {
    const fetchMock = signedIn(uploadHandlers);
    renderRoute(MINT);
    await form();
    const pdf = new File(['x'], 'doc.pdf', { type: 'application/pdf' });
    await userEvent.upload(screen.getByLabelText('Choose images'), pdf, { applyAccept: false });
    expect(await screen.findByText('The image must be a PNG, JPEG or BMP file.')).toBeTruthy();
    expect(
      fetchMock.mock.calls.some(([input]) => String(input).includes('store-token-images')),
    ).toBe(false);
  });

  it('attaches one file at a time', async () => {
    const fetchMock = signedIn(uploadHandlers);
    renderRoute(MINT);
    await form();
    const files = [
      new File(['a'], 'a.pdf', { type: 'application/pdf' }),
      new File(['b'], 'b.pdf', { type: 'application/pdf' }),
    ];
    await userEvent.upload(screen.getByLabelText('Choose the attached file'), files);
    expect(await screen.findByText('Only one file can be attached at a time.')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('store-token'))).toBe(
      false,
    );
  });

  it('creates a collection in a dialog and selects it', async () => {
    const collections: unknown[] = [];
    const fetchMock = signedIn({
      ...uploadHandlers,
      [`${USER}/token/findcollections`]: () => ok({ items: collections }),
      [`${USER}/token/createcollection`]: (_url, init) => {
        const { collection } = JSON.parse(String(init?.body)) as {
          collection: { symbol: string; title: string };
        };
        const created = {
          id: 'col-1',
          ...collection,
          name: collection.title.toLowerCase(),
          image: { url: '/media/c.webp', thumb: '/media/c-t.webp' },
          owner_id: 'user-1',
          owner_nick: 'ana',
          items_count: 0,
          created_at: '2026-11-01T00:00:00.000Z',
        };
        collections.push(created);
        return ok(created, 201);
      },
    });
    renderRoute(MINT);
    await form();
    await userEvent.click(screen.getByRole('button', { name: 'New collection' }));
    const dialog = await screen.findByRole('dialog', { name: 'New collection' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create collection' }));
    expect(await within(dialog).findAllByText('This field is required.')).toHaveLength(3);
    await enter(within(dialog).getByRole('textbox', { name: /Collection title/ }), 'Mugs');
    await enter(within(dialog).getByRole('textbox', { name: /Collection symbol/ }), 'mugs');
    await userEvent.upload(
      within(dialog).getByLabelText('Choose images'),
      new File(['x'], 'c.png', { type: 'image/png' }),
    );
    await within(dialog).findByRole('listitem', { name: 'c.png' });
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Create collection' })).toHaveProperty(
        'disabled',
        false,
      ),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create collection' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const call = fetchMock.mock.calls.find(([input]) => String(input).includes('createcollection'));
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      collection: { symbol: 'mugs', title: 'Mugs', image: 'up-1' },
    });
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Collection' }).textContent).toBe('Mugs'),
    );
  }, 40_000);

  it('shows the creation-limit block instead of the submit button', async () => {
    signedIn({ [`${USER}/get-user-limits`]: () => ok(limits(true)) });
    renderRoute(MINT);
    const block = await screen.findByRole('region', { name: 'Creation limit reached' });
    expect(within(block).getByText('Items created: 5 of 5')).toBeTruthy();
    expect(within(block).getByText('Storage used: 5.0 MB of 100.0 MB')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create item' })).toBeNull();
  });

  it('creates the item and goes to its page', async () => {
    const fetchMock = signedIn({
      ...uploadHandlers,
      [`${USER}/token/create`]: () =>
        ok({ item_id: 'item-9', status: 'done', written: 1, total: 1, error: null }),
      [`${USER}/token/getproductbyid/item-9`]: () => ok(detail({ id: 'item-9' })),
    });
    const { router } = renderRoute(MINT);
    await fillValidForm();
    await userEvent.click(screen.getByRole('button', { name: 'Create item' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/market/product/item-9'));
    expect(await screen.findByText('Your item was created.')).toBeTruthy();
    const [call] = createCalls(fetchMock);
    const body = JSON.parse(String(call?.[1]?.body)) as { contract: Record<string, unknown> };
    expect(body.contract).toMatchObject({
      product_type: 'physical',
      title: 'Stoneware mug',
      images: ['up-1'],
      shipping: { mode: 'delivery', countries: ['ES'] },
      legal_terms: 'None',
      royalty: null,
      contact_email: 'ana@example.com',
    });
  }, 40_000);

  it('shows a failed creation and retries it with the same Idempotency-Key', async () => {
    let calls = 0;
    const fetchMock = signedIn({
      ...uploadHandlers,
      [`${USER}/token/create`]: () => {
        calls += 1;
        return calls === 1
          ? fail('market.create_product.errors.mint.create')
          : ok({ item_id: 'item-9', status: 'done', written: 1, total: 1, error: null });
      },
      [`${USER}/token/getproductbyid/item-9`]: () => ok(detail({ id: 'item-9' })),
    });
    const { router } = renderRoute(MINT);
    await fillValidForm();
    await userEvent.click(screen.getByRole('button', { name: 'Create item' }));
    const dialog = await screen.findByRole('dialog', { name: 'Creating your item' });
    expect(
      await within(dialog).findByText('The item could not be created. Try again.'),
    ).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/market/product/item-9'));
    const keys = createCalls(fetchMock).map(
      ([, init]) => (init?.headers as Record<string, string>)['Idempotency-Key'],
    );
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  }, 40_000);
});

describe('mint form live progress', () => {
  class FakeSocket {
    static all: FakeSocket[] = [];
    readyState = 0;
    onopen: (() => void) | null = null;
    onmessage: ((event: { data: string }) => void) | null = null;
    onclose: (() => void) | null = null;
    constructor(readonly url: string) {
      FakeSocket.all.push(this);
    }
    send() {}
    close() {
      this.readyState = 3;
    }
  }

  it('shows the copies being registered from the live channel', async () => {
    FakeSocket.all = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    const answer = deferred<Response>();
    signedIn({
      '/api/config': () => ok({ ...configWithAuthFixture(), realtimeUrl: 'ws://localhost:3001' }),
      ...uploadHandlers,
      [`${USER}/token/create`]: () => answer.promise,
      [`${USER}/token/getproductbyid/item-9`]: () => ok(detail({ id: 'item-9' })),
    });
    const { router } = renderRoute(MINT);
    await fillValidForm();
    await userEvent.click(screen.getByRole('button', { name: 'Create item' }));
    const dialog = await screen.findByRole('dialog', { name: 'Creating your item' });
    const socket = FakeSocket.all.at(-1);
    expect(socket?.url).toBe('ws://localhost:3001/?userid=user-1&token=access-token');
    socket?.onmessage?.({
      data: JSON.stringify({
        type: 'item.creation',
        id: 'm-1',
        item_id: 'item-9',
        status: 'uploading-token',
        written: 1,
        total: 3,
        error: null,
      }),
    });
    expect(await within(dialog).findByText('Registering the copies (1/3)')).toBeTruthy();
    answer.resolve(ok({ item_id: 'item-9', status: 'done', written: 3, total: 3, error: null }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/market/product/item-9'));
  }, 40_000);
});

describe('item page', () => {
  const history = {
    nftuniqueid: 'item-1#2',
    records: [
      {
        seq: 1,
        event: 'minted',
        from_id: null,
        from_nick: null,
        to_id: 'user-1',
        to_nick: 'ana',
        at: '2026-11-01T10:00:00.000Z',
        ref: null,
        price: null,
        prev_hash: '0',
        hash: 'abcdef0123456789',
      },
      {
        seq: 2,
        event: 'transferred',
        from_id: 'user-1',
        from_nick: 'ana',
        to_id: 'user-2',
        to_nick: 'bruno',
        at: '2026-11-02T11:30:00.000Z',
        ref: null,
        price: null,
        prev_hash: 'abcdef0123456789',
        hash: '9876543210fedcba',
      },
    ],
    head: '9876543210fedcba',
    verified: true,
  };

  it('shows the item, its copies and a copy history to a guest, without download', async () => {
    mockApi({
      '/api/config': () => ok(configFixture()),
      '/api/users/-/token/getproductbyid/item-1': () => ok(detail()),
      '/api/users/-/token/gethistoric/item-1%232': () => ok(history),
    });
    renderRoute('/market/product/item-1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Stoneware mug' })).toBeTruthy();
    expect(screen.getByText('Available')).toBeTruthy();
    expect(screen.getByText('Delivery to ES, PT')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Download/ })).toBeNull();
    const table = screen.getByRole('table', { name: 'Copies' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(
      within(rows[2] as HTMLElement)
        .getByRole('link', { name: '@bruno' })
        .getAttribute('href'),
    ).toBe('/bruno');
    await waitFor(() => expect(document.title).toContain('Stoneware mug'));

    await userEvent.click(screen.getByRole('button', { name: 'History of copy #2' }));
    const dialog = await screen.findByRole('dialog', { name: /History of copy #2/ });
    expect(await within(dialog).findByText('Verified')).toBeTruthy();
    const records = within(dialog).getAllByRole('listitem');
    expect(records).toHaveLength(2);
    expect(within(records[1] as HTMLElement).getByText('Transferred')).toBeTruthy();
    expect(within(records[1] as HTMLElement).getByText('@ana → @bruno')).toBeTruthy();
    expect(within(records[1] as HTMLElement).getByText(/\d\d\/11\/2026 \d\d:\d\d/)).toBeTruthy();
  });

  it('opens the image viewer and moves with the arrow keys', async () => {
    mockApi({
      '/api/config': () => ok(configFixture()),
      '/api/users/-/token/getproductbyid/item-1': () => ok(detail()),
    });
    renderRoute('/market/product/item-1');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Open the images of Stoneware mug' }),
    );
    const viewer = await screen.findByRole('dialog', { name: /Image 1 of 2/ });
    await userEvent.keyboard('{ArrowRight}');
    expect(within(viewer).getByText(/Image 2 of 2/)).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('lets an owner download the attached file', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    signedIn({
      [`${USER}/token/getproductbyid/item-1`]: () => ok(detail({ can_download: true })),
      [`${USER}/token/item-1/file`]: () =>
        ok({ url: 'http://localhost/private/care-guide.pdf', expires_at: '2026-12-01T00:00:00Z' }),
    });
    renderRoute('/market/product/item-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Download care-guide.pdf' }));
    await waitFor(() =>
      expect(open).toHaveBeenCalledWith(
        'http://localhost/private/care-guide.pdf',
        '_blank',
        'noopener',
      ),
    );
  });
});

describe('wallet', () => {
  it('shows the empty state with a Create item link', async () => {
    signedIn({ [`${USER}/token/getmyproducts`]: () => ok({ items: [], nextCursor: null }) });
    renderRoute('/account/wallet/mytokens');
    expect(await screen.findByText('No items yet')).toBeTruthy();
    const links = screen.getAllByRole('link', { name: 'Create item' });
    expect(links[0]?.getAttribute('href')).toBe('/my-tokens/mint-form');
  });

  it("heads a seller's wallet with their Stripe balance", async () => {
    signedIn(
      {
        [`${USER}/token/getmyproducts`]: () => ok({ items: [], nextCursor: null }),
        '/api/payment-gateway/getuserbalance': () =>
          ok({
            available: [{ currency: 'eur', amount: 3920 }],
            pending: [],
          }),
      },
      ownProfileFixture({ onboarding_status: 'complete' }),
    );
    renderRoute('/account/wallet/mytokens');
    const card = await screen.findByRole('region', { name: 'Balance' });
    expect(await within(card).findByText('€39,20')).toBeTruthy();
  });

  it('shows no balance to a user who is not a seller', async () => {
    signedIn({ [`${USER}/token/getmyproducts`]: () => ok({ items: [], nextCursor: null }) });
    renderRoute('/account/wallet/mytokens');
    expect(await screen.findByText('No items yet')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Balance' })).toBeNull();
  });

  it('lists the items, loads more and toggles the profile visibility', async () => {
    const fetchMock = signedIn({
      [`${USER}/token/getmyproducts`]: (_url, init) => {
        const body = JSON.parse(String(init?.body)) as { last?: string };
        return body.last
          ? ok({ items: [summary({ id: 'item-2', title: 'Vase' })], nextCursor: null })
          : ok({ items: [summary()], nextCursor: 'c1' });
      },
      [`${USER}/token/switch-visibility`]: (_url, init) => {
        const body = JSON.parse(String(init?.body)) as { item_id: string; visible: boolean };
        return ok(body);
      },
    });
    renderRoute('/account/wallet/mytokens');
    const grid = await screen.findByRole('list', { name: 'My items' });
    expect(within(grid).getByText('Stoneware mug')).toBeTruthy();
    expect(within(grid).getByText('2 of 3 owned')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(grid).findByText('Vase')).toBeTruthy();
    const toggle = within(grid).getByRole('switch', { name: 'Show Stoneware mug on my profile' });
    expect(toggle).toHaveProperty('checked', true);
    await userEvent.click(toggle);
    await waitFor(() => expect(toggle).toHaveProperty('checked', false));
    const call = fetchMock.mock.calls.find(([input]) =>
      String(input).includes('switch-visibility'),
    );
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ item_id: 'item-1', visible: false });
  });

  it('sends an unverified user from mymints to mytokens', async () => {
    signedIn(
      { [`${USER}/token/getmyproducts`]: () => ok({ items: [], nextCursor: null }) },
      ownProfileFixture({ is_verified: false }),
    );
    const { router } = renderRoute('/account/wallet/mymints');
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/wallet/mytokens'));
  });
});

describe('public items and collections', () => {
  it("lists a user's public items on the profile", async () => {
    mockApi({
      '/api/config': () => ok(configFixture()),
      '/api/users/get-by-nickname/ana': () => ok(ownProfileFixture()),
      '/api/users/-/token/getpublicproducts': () =>
        ok({ items: [summary({ owned: null, visible: null })], nextCursor: null }),
    });
    renderRoute('/ana');
    const section = await screen.findByRole('list', { name: 'Items' });
    expect(
      within(section)
        .getByRole('link', { name: /Stoneware mug/ })
        .getAttribute('href'),
    ).toBe('/market/product/item-1');
  });

  it('shows a collection with its items', async () => {
    mockApi({
      '/api/config': () => ok(configFixture()),
      '/api/users/-/token/getcollection/col-1': () =>
        ok({
          collection: {
            id: 'col-1',
            symbol: 'mugs',
            title: 'Mugs',
            name: 'mugs',
            image: { url: '/media/c.webp', thumb: '/media/c-t.webp' },
            owner_id: 'user-1',
            owner_nick: 'ana',
            items_count: 1,
            created_at: '2026-11-01T00:00:00.000Z',
          },
          items: [summary({ owned: null, visible: null })],
          nextCursor: null,
        }),
    });
    renderRoute('/market/collection/col-1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Mugs' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '@ana' })).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Items of the collection' })).getByText(
        'Stoneware mug',
      ),
    ).toBeTruthy();
  });
});
