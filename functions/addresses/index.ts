/**
 * The addresses domain's public module (checkout will read a buyer's addresses through it).
 */
export {
  addAddress,
  deleteAddress,
  listAddresses,
  updateAddress,
  type AddressesDeps,
} from './addresses';
