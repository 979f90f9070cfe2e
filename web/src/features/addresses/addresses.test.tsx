import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Address } from '@shared/schemas/addresses';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configWithAuthFixture } from '../../test/fixtures';
import {
  addressFixture,
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
const PATH = '/account/settings/general';
const LIST = '/api/users/user-1/addresses';

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  // Amplify holds tokens in this browser; each test's fetchAuthSession says whether they are valid.
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  amplify.signOut.mockResolvedValue(undefined);
});

/** The signed-in settings page over an address book the handlers keep. */
function renderSettings(initial: Address[], extra: Parameters<typeof mockApi>[0] = {}) {
  const book = { items: [...initial] };
  const fetchMock = mockApi({
    '/api/config': () => ok(configWithAuthFixture()),
    '/api/users/user-1/user-profile': () => ok(ownProfileFixture()),
    [LIST]: () => ok({ items: book.items }),
    ...extra,
  });
  return { book, fetchMock, ...renderRoute(PATH) };
}

const addressList = () => screen.findByRole('list', { name: 'Addresses' });

async function fill(dialog: HTMLElement, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    if (label === 'Country') {
      await userEvent.selectOptions(
        within(dialog).getByRole('combobox', { name: /Country/ }),
        value,
      );
    } else {
      await userEvent.type(
        within(dialog).getByRole('textbox', { name: new RegExp(`^${label}`) }),
        value,
      );
    }
  }
}

describe('addresses on /account/settings/general', () => {
  it('shows a skeleton, then the list with the default address marked first', async () => {
    const answer = deferred<Response>();
    mockApi({
      '/api/config': () => ok(configWithAuthFixture()),
      '/api/users/user-1/user-profile': () => ok(ownProfileFixture()),
      [LIST]: () => answer.promise,
    });
    renderRoute(PATH);
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(await screen.findByRole('status', { name: 'Loading addresses' })).toBeTruthy();
    answer.resolve(
      ok({
        items: [
          addressFixture(),
          addressFixture({
            id: 'addr-2',
            fullname: 'Ana at work',
            line1: 'Gran Vía 2',
            default: false,
          }),
        ],
      }),
    );
    const list = await addressList();
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [home, work] = items.map((item) => within(item));
    expect(home?.getByText('Ana García')).toBeTruthy();
    expect(home?.getByText('Calle Mayor 1')).toBeTruthy();
    expect(home?.getByText('Spain')).toBeTruthy();
    expect(home?.getByText('Default')).toBeTruthy();
    expect(home?.queryByRole('button', { name: 'Set as default' })).toBeNull();
    expect(work?.queryByText('Default')).toBeNull();
    expect(work?.getByRole('button', { name: 'Set as default' })).toBeTruthy();
  });

  it('shows the empty state, adds the first address, and lists it after saving', async () => {
    const { book, fetchMock } = renderSettings([], {
      '/api/users/user-1/addaddress': async (_url, init) => {
        const { address } = JSON.parse(String(init?.body)) as { address: Partial<Address> };
        const created = addressFixture({ ...address, id: 'addr-9', default: true });
        book.items = [created];
        return ok(created, 201);
      },
    });
    expect(await screen.findByText('No addresses yet')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Add address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add address' });
    await fill(dialog, {
      Country: 'ES',
      'Full name': 'Ana García',
      'Address line 1': 'Calle Mayor 1',
      'Postal code': '28013',
      City: 'Madrid',
      'State/Province': 'Madrid',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const call = fetchMock.mock.calls.find(([input]) => String(input).includes('addaddress'));
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      address: {
        country: 'ES',
        fullname: 'Ana García',
        line1: 'Calle Mayor 1',
        line2: null,
        postalcode: '28013',
        city: 'Madrid',
        stateprovince: 'Madrid',
        instructions: null,
        default: false,
      },
    });
    const list = await addressList();
    expect(within(list).getByText('Calle Mayor 1')).toBeTruthy();
    expect(screen.getByText('Address added.')).toBeTruthy();
  });

  it('shows the required fields under the fields without calling the API', async () => {
    const { fetchMock } = renderSettings([]);
    await userEvent.click(await screen.findByRole('button', { name: 'Add address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add address' });
    await fill(dialog, { 'Full name': 'Ana García' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // Country, address line 1, postal code, city and state/province.
    await waitFor(() =>
      expect(within(dialog).getAllByText('This field is required.')).toHaveLength(5),
    );
    const country = within(dialog).getByRole('combobox', { name: /Country/ });
    expect(country.getAttribute('aria-invalid')).toBe('true');
    const line1 = within(dialog).getByRole('textbox', { name: /^Address line 1/ });
    expect(line1.getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('addaddress'))).toBe(
      false,
    );
  });

  it('shows the API field errors under their fields', async () => {
    renderSettings([], {
      '/api/users/user-1/addaddress': () =>
        jsonResponse(
          {
            error: {
              code: 'invalid_request',
              message: 'Invalid',
              fields: { 'address.postalcode': 'forms.validation.too_big' },
              requestId: 't',
            },
          },
          400,
        ),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add address' });
    await fill(dialog, {
      Country: 'FR',
      'Full name': 'Ana García',
      'Address line 1': '1 rue de Rivoli',
      'Postal code': '75001',
      City: 'Paris',
      'State/Province': 'Île-de-France',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This value is too large.')).toBeTruthy();
    const postal = within(dialog).getByRole('textbox', { name: /^Postal code/ });
    expect(postal.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('dialog', { name: 'Add address' })).toBeTruthy();
  });

  it('deletes an address only after confirmation', async () => {
    const deleted = vi.fn();
    const { book } = renderSettings(
      [
        addressFixture(),
        addressFixture({
          id: 'addr-2',
          fullname: 'Ana at work',
          line1: 'Gran Vía 2',
          default: false,
        }),
      ],
      {
        '/api/users/user-1/deleteaddress/addr-2': () => {
          deleted();
          book.items = book.items.filter((address) => address.id !== 'addr-2');
          return ok({ deleted: 'addr-2', default: 'addr-1' });
        },
      },
    );
    await addressList();
    await userEvent.click(
      screen.getByRole('button', { name: 'Delete the address of Ana at work' }),
    );
    let dialog = await screen.findByRole('dialog', { name: 'Delete this address?' });
    expect(within(dialog).getByText(/Gran Vía 2/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deleted).not.toHaveBeenCalled();

    await userEvent.click(
      screen.getByRole('button', { name: 'Delete the address of Ana at work' }),
    );
    dialog = await screen.findByRole('dialog', { name: 'Delete this address?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Gran Vía 2')).toBeNull());
    expect(deleted).toHaveBeenCalledTimes(1);
    expect(within(await addressList()).getAllByRole('listitem')).toHaveLength(1);
  });

  it('makes another address the default and refreshes the list', async () => {
    const { book, fetchMock } = renderSettings(
      [
        addressFixture(),
        addressFixture({
          id: 'addr-2',
          fullname: 'Ana at work',
          line1: 'Gran Vía 2',
          default: false,
        }),
      ],
      {
        '/api/users/user-1/updateaddress/addr-2': () => {
          book.items = book.items
            .map((address) => ({ ...address, default: address.id === 'addr-2' }))
            .reverse();
          return ok(book.items[0]);
        },
      },
    );
    const list = await addressList();
    const work = within(list).getByRole('listitem', { name: 'Ana at work' });
    await userEvent.click(within(work).getByRole('button', { name: 'Set as default' }));

    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Addresses' }))
          .getAllByRole('listitem')
          .map((item) => item.getAttribute('aria-label')),
      ).toEqual(['Ana at work', 'Ana García']),
    );
    const call = fetchMock.mock.calls.find(([input]) => String(input).includes('updateaddress'));
    expect(call?.[1]?.method).toBe('PUT');
    expect(JSON.parse(String(call?.[1]?.body)).address).toMatchObject({
      fullname: 'Ana at work',
      default: true,
    });
    const nowDefault = within(screen.getByRole('list', { name: 'Addresses' })).getByRole(
      'listitem',
      { name: 'Ana at work' },
    );
    expect(within(nowDefault).getByText('Default')).toBeTruthy();
  });

  it('edits an address with its values filled in', async () => {
    const { book } = renderSettings([addressFixture()], {
      '/api/users/user-1/updateaddress/addr-1': async (_url, init) => {
        const { address } = JSON.parse(String(init?.body)) as { address: Partial<Address> };
        book.items = [addressFixture({ ...address, default: true })];
        return ok(book.items[0]);
      },
    });
    await addressList();
    await userEvent.click(screen.getByRole('button', { name: 'Edit the address of Ana García' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit address' });
    const city = within(dialog).getByRole('textbox', { name: /^City/ });
    expect((city as HTMLInputElement).value).toBe('Madrid');
    await userEvent.clear(city);
    await userEvent.type(city, 'Alcalá');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('28013, Alcalá, Madrid')).toBeTruthy();
  });

  it('shows an error with a retry when the list cannot load', async () => {
    let fail = true;
    renderSettings([], {
      [LIST]: () =>
        fail
          ? jsonResponse({ error: { code: 'unexpected', message: 'x', requestId: 't' } }, 500)
          : ok({ items: [addressFixture()] }),
    });
    expect(await screen.findByText("We couldn't load your addresses.")).toBeTruthy();
    fail = false;
    // (The page's other sections may offer their own retry.)
    const section = screen.getByRole('region', { name: 'Addresses' });
    await userEvent.click(within(section).getByRole('button', { name: 'Try again' }));
    expect(within(await addressList()).getByText('Calle Mayor 1')).toBeTruthy();
  });
});
