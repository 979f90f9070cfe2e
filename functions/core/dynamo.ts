/**
 * DynamoDB error translation shared by the repos (the edge where conditional failures become
 * domain outcomes).
 */
export interface CancellationReason {
  Code?: string;
  /**
   * The item as it stood, for a piece written with ReturnValuesOnConditionCheckFailure ALL_OLD
   * whose condition failed (in DynamoDB's attribute-value format: the document client does not
   * convert errors).
   */
  Item?: Record<string, unknown>;
}

/**
 * The per-item reasons of a cancelled TransactWriteItems (in the order of its items), or undefined
 * when the error is not a transaction cancellation.
 */
export function cancellationReasons(error: unknown): CancellationReason[] | undefined {
  if (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: string }).name === 'TransactionCanceledException'
  ) {
    return (error as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [];
  }
  return undefined;
}

/** Whether a single-item write failed its ConditionExpression. */
export function isConditionalCheckFailed(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: string }).name === 'ConditionalCheckFailedException'
  );
}
