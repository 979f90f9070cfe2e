import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StoredImage } from '../images/index';
import { uploadKey } from './items.keys';

/**
 * The items domain's transaction pieces that other domains join (collections: a new collection
 * claims a confirmed image upload inside its own transaction).
 *
 * The upload claim: the ONLY place outside items.repo that knows the upload item
 * (`pk = USER#<ownerId>, sk = UPLOAD#<uploadId>`, written by items' store-token-images/confirm).
 * It assumes the attributes `user_id` (= owner), `kind` ('image'), `status` ('pending' |
 * 'confirmed' | 'used') and `image: { full, thumb }` (S3 keys of the re-encoded WebP images in
 * the images bucket), and a `ttl` that a used upload must lose. Claiming sets status 'used' and
 * `collection_id`, removes `ttl`, on condition status = 'confirmed' AND kind = 'image' AND
 * user_id = owner.
 */

function isStoredImage(value: unknown): value is StoredImage {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as StoredImage).full === 'string' &&
    typeof (value as StoredImage).thumb === 'string'
  );
}

export async function readClaimableImageUpload(
  doc: DynamoDBDocumentClient,
  TableName: string,
  ownerId: string,
  uploadId: string,
): Promise<StoredImage | undefined> {
  const result = await doc.send(
    new GetCommand({ TableName, Key: uploadKey(ownerId, uploadId), ConsistentRead: true }),
  );
  const item = result.Item;
  if (
    item === undefined ||
    item.user_id !== ownerId ||
    item.kind !== 'image' ||
    item.status !== 'confirmed' ||
    !isStoredImage(item.image)
  ) {
    return undefined;
  }
  return { full: item.image.full, thumb: item.image.thumb };
}

export function claimImageUploadUpdate(
  TableName: string,
  ownerId: string,
  uploadId: string,
  collectionId: string,
) {
  return {
    TableName,
    Key: uploadKey(ownerId, uploadId),
    UpdateExpression: 'SET #status = :used, collection_id = :collection REMOVE #ttl',
    ConditionExpression: '#status = :confirmed AND #kind = :image AND user_id = :owner',
    ExpressionAttributeNames: { '#status': 'status', '#kind': 'kind', '#ttl': 'ttl' },
    ExpressionAttributeValues: {
      ':used': 'used',
      ':confirmed': 'confirmed',
      ':image': 'image',
      ':owner': ownerId,
      ':collection': collectionId,
    },
  };
}
