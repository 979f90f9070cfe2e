import {
  addressListSchema,
  addressSchema,
  deletedAddressSchema,
  type Address,
  type AddressInput,
  type DeletedAddress,
} from '@shared/schemas/addresses';
import { apiGet, apiPost, apiRequest } from '../../../lib/api';

export const addressKeys = {
  all: ['addresses'] as const,
  list: (userId: string) => [...addressKeys.all, 'list', userId] as const,
};

const enc = encodeURIComponent;

/** GET /api/users/{id}/addresses → { data: { items } } (default first, then newest). */
export async function fetchAddresses(userId: string, signal?: AbortSignal): Promise<Address[]> {
  const { items } = await apiGet(`/users/${enc(userId)}/addresses`, {
    schema: addressListSchema,
    signal,
  });
  return items;
}

/** POST /api/users/{id}/addaddress { address } → 201 { data: Address }. */
export function addAddress(userId: string, address: AddressInput): Promise<Address> {
  return apiPost(`/users/${enc(userId)}/addaddress`, { address }, { schema: addressSchema });
}

/** PUT /api/users/{id}/updateaddress/{addressId} { address } → { data: Address }. */
export function updateAddress(
  userId: string,
  addressId: string,
  address: AddressInput,
): Promise<Address> {
  return apiRequest(`/users/${enc(userId)}/updateaddress/${enc(addressId)}`, {
    method: 'PUT',
    body: { address },
    schema: addressSchema,
  });
}

/** DELETE /api/users/{id}/deleteaddress/{addressId} → { data: { deleted, default } }. */
export function deleteAddress(userId: string, addressId: string): Promise<DeletedAddress> {
  return apiRequest(`/users/${enc(userId)}/deleteaddress/${enc(addressId)}`, {
    method: 'DELETE',
    schema: deletedAddressSchema,
  });
}

/** The form fields of a saved address (for editing it or making it the default). */
export function inputOf(address: Address): AddressInput {
  return {
    country: address.country,
    fullname: address.fullname,
    line1: address.line1,
    line2: address.line2,
    postalcode: address.postalcode,
    city: address.city,
    stateprovince: address.stateprovince,
    instructions: address.instructions,
  };
}
