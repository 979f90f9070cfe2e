import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { newId } from '../core/ids';
import type { AddressesDeps } from './addresses';
import { createAddressesRepo } from './addresses.repo';

export function addressesDeps(): AddressesDeps {
  const env = readEnv();
  return {
    repo: createAddressesRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName }),
    newId,
  };
}
