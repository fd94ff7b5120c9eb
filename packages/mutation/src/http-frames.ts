/**
 * HTTP/1.1 message framing over a byte stream, read beside a raw TCP pipe: where each request's
 * head ends and its body with it, and each response as a whole message (its raw bytes and its body
 * with chunked transfer undone). The proxy reads copies of the bytes, so what the client sends
 * reaches the service as sent, however odd (a head over 16 KiB, one never ended, no Host): the
 * service's own answer to it is what the contract tests check.
 */

export interface RequestHead {
  method: string;
  /** The request target as sent: path and query. */
  target: string;
  headers: [string, string][];
}

export interface ResponseMessage {
  status: number;
  reason: string;
  headers: [string, string][];
  /** The body as its framing gives it (chunks joined), still in its Content-Encoding. */
  body: Buffer;
  /** Every byte of the message as it came. */
  raw: Buffer;
  chunked: boolean;
}

const CRLF2 = Buffer.from('\r\n\r\n');
const MAX_HEAD = 1024 * 1024;

/** The value of a header (first of its name), or undefined. */
export function headerOf(headers: readonly [string, string][], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find(([n]) => n.toLowerCase() === lower)?.[1];
}

function parseHeaders(lines: string[]): [string, string][] {
  return lines
    .filter((l) => l.length > 0)
    .map((line) => {
      const colon = line.indexOf(':');
      return colon < 0 ? [line, ''] : [line.slice(0, colon), line.slice(colon + 1).trim()];
    });
}

/** Where a chunked body ends in `buf` from `at` (after its trailers), with its chunks joined; null while incomplete. */
function readChunked(buf: Buffer, at: number): { end: number; body: Buffer } | null {
  const parts: Buffer[] = [];
  let i = at;
  for (;;) {
    const eol = buf.indexOf('\r\n', i);
    if (eol < 0) return null;
    const size = Number.parseInt(buf.subarray(i, eol).toString('latin1').split(';')[0]!.trim(), 16);
    if (!Number.isFinite(size) || size < 0) throw new Error('bad chunk size');
    if (size === 0) {
      // Trailers, then an empty line.
      let t = eol + 2;
      for (;;) {
        const next = buf.indexOf('\r\n', t);
        if (next < 0) return null;
        if (next === t) return { end: next + 2, body: Buffer.concat(parts) };
        t = next + 2;
      }
    }
    if (buf.length < eol + 2 + size + 2) return null;
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
}

/**
 * Reads requests from a client's byte stream: a head as soon as it is whole, then skips its body.
 * A stream it cannot read as HTTP/1.1 makes it give up (`lost`): nothing after is paired.
 */
export class RequestReader {
  private buf: Buffer = Buffer.alloc(0);
  private bodyLeft = 0;
  private chunkedBody = false;
  private readonly onHead: (head: RequestHead) => void;
  lost = false;

  constructor(onHead: (head: RequestHead) => void) {
    this.onHead = onHead;
  }

  push(chunk: Buffer): void {
    if (this.lost) return;
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    try {
      this.drain();
    } catch {
      this.lost = true;
      this.buf = Buffer.alloc(0);
    }
  }

  private drain(): void {
    for (;;) {
      if (this.bodyLeft > 0) {
        const take = Math.min(this.bodyLeft, this.buf.length);
        this.bodyLeft -= take;
        this.buf = this.buf.subarray(take);
        if (this.bodyLeft > 0) return;
      }
      if (this.chunkedBody) {
        const done = readChunked(this.buf, 0);
        if (!done) return;
        this.chunkedBody = false;
        this.buf = this.buf.subarray(done.end);
      }
      const end = this.buf.indexOf(CRLF2);
      if (end < 0) {
        if (this.buf.length > MAX_HEAD) throw new Error('head too long');
        return;
      }
      const [line = '', ...rest] = this.buf.subarray(0, end).toString('latin1').split('\r\n');
      const m = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(line);
      if (!m) throw new Error('not a request line');
      const headers = parseHeaders(rest);
      this.buf = this.buf.subarray(end + 4);
      this.chunkedBody = /chunked/i.test(headerOf(headers, 'transfer-encoding') ?? '');
      this.bodyLeft = this.chunkedBody ? 0 : Number(headerOf(headers, 'content-length') ?? 0) || 0;
      this.onHead({ method: m[1]!, target: m[2]!, headers });
    }
  }
}

/**
 * Reads whole response messages from a service's byte stream. `bodiless(status)` says whether the
 * message now expected has no body whatever its headers say (the answer to a HEAD, a 1xx, 204, 304).
 */
export class ResponseReader {
  private buf: Buffer = Buffer.alloc(0);
  private readonly noBody: (status: number) => boolean;
  private readonly onMessage: (message: ResponseMessage) => void;
  lost = false;

  constructor(noBody: (status: number) => boolean, onMessage: (message: ResponseMessage) => void) {
    this.noBody = noBody;
    this.onMessage = onMessage;
  }

  /** Bytes it holds that are not yet a whole message, given up (sent on raw when the stream ends or is lost). */
  takePending(): Buffer {
    const held = this.buf;
    this.buf = Buffer.alloc(0);
    return held;
  }

  push(chunk: Buffer): void {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    if (!this.lost) this.drain();
  }

  /** The service closed the stream: a body read to the end is whole now. */
  end(): void {
    if (this.lost || this.buf.length === 0) return;
    const head = this.head();
    if (head && !headerOf(head.headers, 'content-length') && !head.chunked && !this.noBody(head.status)) {
      this.emit(head, this.buf.subarray(head.bodyAt), this.buf.length);
    }
  }

  private head(): (Omit<ResponseMessage, 'body' | 'raw'> & { bodyAt: number }) | null {
    const end = this.buf.indexOf(CRLF2);
    if (end < 0) return null;
    const [line = '', ...rest] = this.buf.subarray(0, end).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(line);
    if (!m) throw new Error('not a status line');
    const headers = parseHeaders(rest);
    return {
      status: Number(m[1]),
      reason: m[2] ?? '',
      headers,
      chunked: /chunked/i.test(headerOf(headers, 'transfer-encoding') ?? ''),
      bodyAt: end + 4,
    };
  }

  private emit(head: Omit<ResponseMessage, 'body' | 'raw'> & { bodyAt: number }, body: Buffer, end: number): void {
    const raw = this.buf.subarray(0, end);
    this.buf = this.buf.subarray(end);
    const { bodyAt: _, ...rest } = head;
    this.onMessage({ ...rest, body, raw });
  }

  private drain(): void {
    try {
      for (;;) {
        const head = this.head();
        if (!head) return;
        if (this.noBody(head.status)) {
          this.emit(head, Buffer.alloc(0), head.bodyAt);
          continue;
        }
        if (head.chunked) {
          const done = readChunked(this.buf, head.bodyAt);
          if (!done) return;
          this.emit(head, done.body, done.end);
          continue;
        }
        const length = headerOf(head.headers, 'content-length');
        if (length === undefined) return; // read to the end of the stream
        const end = head.bodyAt + Number(length);
        if (this.buf.length < end) return;
        this.emit(head, this.buf.subarray(head.bodyAt, end), end);
      }
    } catch {
      this.lost = true;
    }
  }
}
