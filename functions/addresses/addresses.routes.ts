import { route } from '../core/route';
import {
  addressBodySchema,
  addressListSchema,
  addressPathSchema,
  addressSchema,
  deletedAddressSchema,
  userPathSchema,
} from '../../shared/schemas/addresses';

/**
 * The addresses domain's HTTP calls: THE one list of them (functions/core/route.ts). functions/routes.ts
 * composes every domain's list; OpenAPI is generated from these declarations; each handler passes
 * its declaration to httpHandler.
 */
export const addressesRoutes = {
  listAddresses: route({
    method: 'GET',
    path: '/api/users/{id}/addresses',
    handler: 'addresses/handlers/list-addresses',
    auth: 'user',
    group: 'accounts',
    summary: "The caller's addresses, default first (at most 20); {id} must be the caller (403)",
    tags: ['addresses'],
    request: { path: userPathSchema },
    response: addressListSchema,
    owner: 'id',
  }),
  addAddress: route({
    method: 'POST',
    path: '/api/users/{id}/addaddress',
    handler: 'addresses/handlers/add-address',
    auth: 'user',
    group: 'accounts',
    summary:
      'Add an address (spec 001 §7 users/{id}/addaddress); the first is the default; at most 20 (400 addresses.errors.limit); {id} must be the caller (403)',
    tags: ['addresses'],
    request: { path: userPathSchema, body: addressBodySchema },
    response: addressSchema,
    status: 201,
    owner: 'id',
  }),
  updateAddress: route({
    method: 'PUT',
    path: '/api/users/{id}/updateaddress/{addressId}',
    handler: 'addresses/handlers/update-address',
    auth: 'user',
    group: 'accounts',
    summary:
      'Replace an address (spec 001 §7 users/{id}/updateaddress); default true moves the default; 404 addresses.errors.not_found',
    tags: ['addresses'],
    request: { path: addressPathSchema, body: addressBodySchema },
    response: addressSchema,
    owner: 'id',
  }),
  deleteAddress: route({
    method: 'DELETE',
    path: '/api/users/{id}/deleteaddress/{addressId}',
    handler: 'addresses/handlers/delete-address',
    auth: 'user',
    group: 'accounts',
    summary:
      'Delete an address (spec 001 §7 users/{id}/deleteaddress); deleting the default makes the most recent one left the default',
    tags: ['addresses'],
    request: { path: addressPathSchema },
    response: deletedAddressSchema,
    owner: 'id',
  }),
} as const;
