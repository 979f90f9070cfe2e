import { ApiError, NETWORK_ERROR } from './api';

/**
 * A browser upload straight to storage with a presigned POST: every policy field, then `file`
 * last (S3 ignores fields after it). A network failure is `network`; a refusal (policy size or
 * type, expiry) is the caller's `refusedCode(status)`.
 */
export async function postToStorage(
  post: { url: string; fields: Record<string, string> },
  file: File,
  refusedCode: (status: number) => string,
): Promise<void> {
  const form = new FormData();
  for (const [name, value] of Object.entries(post.fields)) form.append(name, value);
  form.append('file', file);
  let response: Response;
  try {
    response = await fetch(post.url, { method: 'POST', body: form });
  } catch (error) {
    throw new ApiError({ code: NETWORK_ERROR, status: 0, cause: error });
  }
  if (!response.ok)
    throw new ApiError({ code: refusedCode(response.status), status: response.status });
}
