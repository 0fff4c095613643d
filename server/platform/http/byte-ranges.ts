/**
 * What a GET of a file with a strong ETag gets, by its conditional and range headers (RFC 9110
 * 13.1.2, 13.1.5 and 14): `304` when If-None-Match names its ETag (or `*`); else `206` with one
 * range when Range asks for one it can give (and If-Range, where sent, names the same ETag);
 * `416` when the range starts past the end; else `200` and the whole file. Several ranges, or a
 * Range it cannot read, get the whole file, as RFC 9110 allows (no multipart answers).
 */
export type Delivery = { status: 200 } | { status: 304 } | { status: 206; start: number; end: number } | { status: 416 };

export interface ConditionalHeaders {
  'if-none-match'?: string | undefined;
  range?: string | undefined;
  'if-range'?: string | undefined;
}

/** The entity tags an If-None-Match lists, compared weakly (a W/ prefix aside). */
function noneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

export function deliveryFor(headers: ConditionalHeaders, etag: string, size: number): Delivery {
  if (headers['if-none-match'] !== undefined && noneMatch(headers['if-none-match'], etag)) return { status: 304 };
  const range = headers.range;
  if (range === undefined) return { status: 200 };
  // If-Range: the range only for this very file (strong comparison; a date or another tag: the whole).
  if (headers['if-range'] !== undefined && headers['if-range'].trim() !== etag) return { status: 200 };
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(range);
  if (!match || (match[1] === '' && match[2] === '')) return { status: 200 };
  const [, first, last] = match;
  if (first === '') {
    // The last N bytes.
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { status: 416 };
    return { status: 206, start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { status: 200 }; // not a valid range: ignored
  if (start >= size) return { status: 416 };
  const end = last === '' ? size - 1 : Number(last);
  return { status: 206, start, end: Math.min(end, size - 1) };
}
