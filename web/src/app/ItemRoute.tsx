import { ItemPage } from '../features/items/components/ItemPage';
import { ItemOfferings } from '../features/offering/components/ItemOfferings';
import { ItemOwnerActions } from '../features/offering/components/ItemOwnerActions';

/**
 * `/market/product/:id`: the item (items feature) with its offerings and its owners' List action
 * (offering feature), composed here since features do not import each other.
 */
export function ItemRoute() {
  return (
    <ItemPage
      renderOwnerActions={(item) => <ItemOwnerActions item={item} />}
      renderOfferings={(item, refresh) => (
        <ItemOfferings itemId={item.id} onCopiesMoved={refresh} />
      )}
    />
  );
}
