import { Transform, type TransformCallback } from 'node:stream';

/**
 * Decodes `Content-Encoding: aws-chunked` bodies (SigV4 streaming uploads: the SDK sends them
 * for stream bodies, with `x-amz-content-sha256: STREAMING-…` and often a trailing checksum).
 * s3rver does not understand the framing and would store it as the object's content.
 *
 * Framing: `<hex size>[;chunk-signature=<sig>]\r\n<data>\r\n` … `0[;chunk-signature=…]\r\n`
 * followed by optional trailer lines (`x-amz-checksum-crc32:…\r\n`) and a final `\r\n`.
 * Chunk signatures and trailing checksums are not verified.
 */
export function isAwsChunked(headers: {
  'content-encoding'?: string | undefined;
  'x-amz-content-sha256'?: string | undefined;
}): boolean {
  const encoding = headers['content-encoding'] ?? '';
  const hash = headers['x-amz-content-sha256'] ?? '';
  return /(^|,)\s*aws-chunked\s*(,|$)/i.test(encoding) || hash.startsWith('STREAMING-');
}

/** The Content-Encoding left once aws-chunked is removed (undefined when nothing is left). */
export function withoutAwsChunked(encoding: string | undefined): string | undefined {
  const rest = (encoding ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part.toLowerCase() !== 'aws-chunked');
  return rest.length === 0 ? undefined : rest.join(', ');
}

export class AwsChunkedDecoder extends Transform {
  private buffer: Buffer = Buffer.alloc(0);
  /** Bytes of data left in the current chunk, or -1 while reading a size line. */
  private remaining = -1;
  private expectCrlf = false;
  private done = false;
  /** Trailer headers (e.g. x-amz-checksum-crc32), once the body has ended. */
  readonly trailers: Record<string, string> = {};

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    try {
      this.drain();
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    if (!this.done && (this.remaining > 0 || this.buffer.length > 0)) {
      callback(new Error('aws-chunked body ended inside a chunk'));
      return;
    }
    callback();
  }

  private drain(): void {
    for (;;) {
      if (this.done) {
        this.readTrailers();
        return;
      }
      if (this.expectCrlf) {
        if (this.buffer.length < 2) return;
        if (this.buffer[0] !== 13 || this.buffer[1] !== 10) {
          throw new Error('aws-chunked: missing CRLF after chunk data');
        }
        this.buffer = this.buffer.subarray(2);
        this.expectCrlf = false;
      }
      if (this.remaining === -1) {
        const end = this.buffer.indexOf('\r\n');
        if (end === -1) {
          if (this.buffer.length > 4096) throw new Error('aws-chunked: chunk header too long');
          return;
        }
        const header = this.buffer.subarray(0, end).toString('latin1');
        this.buffer = this.buffer.subarray(end + 2);
        const size = Number.parseInt(header.split(';')[0] ?? '', 16);
        if (!Number.isFinite(size) || size < 0) {
          throw new Error(`aws-chunked: bad chunk header "${header}"`);
        }
        if (size === 0) {
          this.done = true;
          continue;
        }
        this.remaining = size;
      }
      if (this.buffer.length === 0) return;
      const take = Math.min(this.remaining, this.buffer.length);
      this.push(this.buffer.subarray(0, take));
      this.buffer = this.buffer.subarray(take);
      this.remaining -= take;
      if (this.remaining > 0) return;
      this.remaining = -1;
      this.expectCrlf = true;
    }
  }

  private readTrailers(): void {
    for (;;) {
      const end = this.buffer.indexOf('\r\n');
      if (end === -1) return;
      const line = this.buffer.subarray(0, end).toString('latin1');
      this.buffer = this.buffer.subarray(end + 2);
      if (line === '') continue;
      const colon = line.indexOf(':');
      if (colon > 0)
        this.trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
  }
}
