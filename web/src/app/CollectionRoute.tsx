import { CollectionOfferings } from '../features/market/components/CollectionOfferings';
import { CollectionPage } from '../features/items/components/CollectionPage';

/**
 * `/market/collection/:id`: the collection (items feature) with its published offerings (market
 * feature), composed here since features do not import each other.
 */
export function CollectionRoute() {
  return (
    <CollectionPage
      renderOfferings={(collection) => <CollectionOfferings collectionId={collection.id} />}
    />
  );
}
