import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { AwsChunkedDecoder, isAwsChunked, withoutAwsChunked } from './aws-chunked';

async function decode(parts: string[]): Promise<{ body: string; decoder: AwsChunkedDecoder }> {
  const decoder = new AwsChunkedDecoder();
  const body = await text(Readable.from(parts.map((part) => Buffer.from(part))).pipe(decoder));
  return { body, decoder };
}

describe('aws-chunked', () => {
  it('decodes unsigned chunks with a trailing checksum, split anywhere', async () => {
    const wire = '6\r\nhello \r\n5\r\nworld\r\n0\r\nx-amz-checksum-crc32:DUoRhQ==\r\n\r\n';
    const parts = wire.match(/.{1,3}/gs) ?? [];
    const { body, decoder } = await decode(parts);
    expect(body).toBe('hello world');
    expect(decoder.trailers).toEqual({ 'x-amz-checksum-crc32': 'DUoRhQ==' });
  });

  it('decodes signed chunks', async () => {
    const { body } = await decode([
      '3;chunk-signature=abc\r\nabc\r\n0;chunk-signature=def\r\n\r\n',
    ]);
    expect(body).toBe('abc');
  });

  it('refuses a truncated body', async () => {
    await expect(decode(['5\r\nab'])).rejects.toThrow(/inside a chunk/);
  });

  it('recognises the encoding', () => {
    expect(isAwsChunked({ 'content-encoding': 'aws-chunked' })).toBe(true);
    expect(isAwsChunked({ 'x-amz-content-sha256': 'STREAMING-UNSIGNED-PAYLOAD-TRAILER' })).toBe(
      true,
    );
    expect(isAwsChunked({ 'content-encoding': 'gzip' })).toBe(false);
    expect(withoutAwsChunked('aws-chunked, gzip')).toBe('gzip');
    expect(withoutAwsChunked('aws-chunked')).toBeUndefined();
  });
});
