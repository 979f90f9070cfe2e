import { uploadKey } from './items.keys';

/**
 * The items domain's transaction pieces that other domains join (collections: a new collection
 * claims a confirmed image upload inside its own transaction).
 *
 * The upload claim (read by items.repo.ts readClaimableImageUpload): the upload item
 * (`pk = USER#<ownerId>, sk = UPLOAD#<uploadId>`, written by items' store-token-images/confirm).
 * It assumes the attributes `user_id` (= owner), `kind` ('image'), `status` ('pending' |
 * 'confirmed' | 'used') and `image: { full, thumb }` (S3 keys of the re-encoded WebP images in
 * the images bucket), and a `ttl` that a used upload must lose. Claiming sets status 'used' and
 * `collection_id`, removes `ttl`, on condition status = 'confirmed' AND kind = 'image' AND
 * user_id = owner.
 */

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
