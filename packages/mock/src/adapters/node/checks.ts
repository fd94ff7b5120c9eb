/**
 * What the Node server's two paths (the WHATWG one through @hono/node-server, and the fast path)
 * both do before and after the engine: refuse a target or Host no request of this API has (before
 * either path builds a URL of them), refuse a body in a content coding, and compress JSON as
 * Accept-Encoding asks. One copy, so the two cannot drift apart.
 */
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { isPieces, type Answer } from '@investor-graph/engine/adapter';
import { concatBytes } from '@investor-graph/engine/adapter';
import { codedBody } from '@investor-graph/engine/adapter';
import { ProblemError } from '@investor-graph/engine/adapter';

/** Bodies below this go as they are: compressing them saves too little to pay for itself. */
export const COMPRESS_FROM = 1024;
/** A `.` or `..` path segment, plain or percent-encoded (any case), ended by a slash, the end or a fragment. */
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$|#)/i;
/**
 * An authority as RFC 3986 writes it, without user or percent-escape:
 * a name or IPv4 address, or a bracketed IP literal, and a port.
 */
const AUTHORITY = /^(?:\[[0-9a-f:.]+\]|[a-z0-9\-._~!$&'()*+,;=]+)(?::(\d{0,5}))?$/i;
/**
 * Hosts judged, by their text (clients send few): cleared when full, so a client sending many costs a URL parse each.
 */
const judgedHosts = new Map<string, boolean>();
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * The 400 a request earns before the engine sees it, or null. Only origin-form targets: an absolute
 * or scheme-relative one must not pick the host. These refusals close the connection (DECISIONS.md,
 * Status codes): what came after is unread. `bare` is the bare-limit-answers fault, which lets the
 * dot segment and Host through, as a front that checks neither would.
 */
export function refusal(incoming: IncomingMessage, target: string, bare: boolean): ProblemError | null {
  const refuse = (detail: string) => new ProblemError('invalid_request', detail, { headers: { connection: 'close' } });
  if (!target.startsWith('/') || target.startsWith('//')) return refuse('The request target must be a path.');
  if (bare) return null;
  // URL parsing resolves dot segments, %2e%2e too: /api/v1/%2e%2e/%2e%2e/__control would reach
  // the control plane past a filter in front that looks at the raw path. No route has one.
  const query = target.indexOf('?');
  if (DOT_SEGMENT.test(query === -1 ? target : target.slice(0, query)))
    return refuse('The request target holds a dot segment (. or .., however encoded), which no path of this API has.');
  // HTTP/1.1 requires exactly one Host, not empty (RFC 9112 3.2); Node's own check would answer a bare 400.
  let hosts = 0;
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') hosts++;
  const host = incoming.headers.host;
  if (incoming.httpVersion === '1.1' && (hosts !== 1 || !host))
    return refuse('An HTTP/1.1 request must have one Host header, not empty.');
  // Left to a URL parser, 127.0.0.256 or 09.1.1.1 would fail (or worse) wherever one is built.
  if (host && !validHost(host))
    return refuse(
      'The Host header is no host and port: a name, an IPv4 address or a bracketed IPv6 one, then a port of at ' +
        'most 65535.',
    );
  return null;
}

/**
 * Whether a Host is an authority a URL can be made of as sent: RFC 3986's form (no user, no
 * percent-escape), a port of at most 65535, and what the WHATWG URL parser takes, which reads a
 * name ending in a number as an IPv4 address (so 09.1.1.1, 1.2.3.4.5 and 0x100000000 are none).
 */
export function validHost(host: string): boolean {
  let valid = judgedHosts.get(host);
  if (valid === undefined) {
    const authority = AUTHORITY.exec(host);
    valid = authority !== null && Number(authority[1] || 0) <= 65535 && URL.canParse(`http://${host}/`);
    if (judgedHosts.size >= 256) judgedHosts.clear();
    judgedHosts.set(host, valid);
  }
  return valid;
}

/**
 * The 415 of a body in a content coding (gzip, br, deflate: any but identity), or null. Read as it
 * is, it would be judged as the JSON it is not; decoded, a few kilobytes could unpack to gigabytes.
 * Accept-Encoding: identity says what is taken (RFC 7694 3); the body is left unread, so the
 * connection closes.
 */
export function codingRefusal(incoming: IncomingMessage): ProblemError | null {
  const refused = codedBody(incoming.headers['content-encoding']);
  if (refused) refused.headers.connection = 'close';
  return refused;
}

/**
 * The encoding Accept-Encoding takes for a JSON body: br or gzip (its q-values heeded, br first on
 * a tie); null when it takes neither. Whether the body is worth compressing is the size's to say.
 */
export function acceptedEncoding(accept: string): 'br' | 'gzip' | null {
  const weights = new Map<string, number>();
  for (const part of accept.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name!.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => weights.get(name) ?? (weights.has('*') ? weights.get('*')! : 0);
  const best = (['br', 'gzip'] as const).filter((e) => weight(e) > 0).sort((a, b) => weight(b) - weight(a))[0];
  return best ?? null;
}

/** A body compressed as chosen: brotli at quality 4 (near gzip's speed, smaller), gzip at its default. */
export async function compress(body: Uint8Array, encoding: 'br' | 'gzip'): Promise<Uint8Array> {
  return encoding === 'br'
    ? brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzipped(body);
}

const utf8 = new TextEncoder();

/**
 * The fast path's answer as the client's Accept-Encoding takes it, by the rules `encoded` in
 * server.ts applies to a Response: JSON of COMPRESS_FROM bytes or more in br or gzip; for HEAD the
 * GET's encoding without a length. Without Accept-Encoding (or taking neither) it goes untouched.
 */
export async function encodedAnswer(incoming: IncomingMessage, answer: Answer): Promise<Answer> {
  const accept = incoming.headers['accept-encoding'];
  // An incident's slow body goes as it is: compressing it whole would send it at once.
  if (!accept || answer.status === 304 || answer.status === 204 || answer.delivery) return answer;
  const headers = answer.headers;
  if (headers['content-encoding'] !== undefined || !/json/.test(headers['content-type'] ?? '')) return answer;
  const encoding = acceptedEncoding(accept);
  if (encoding === null) return answer;
  const body = answer.body;
  const bytes =
    incoming.method === 'HEAD' || body === null
      ? null
      : typeof body === 'string'
        ? utf8.encode(body)
        : body instanceof Uint8Array
          ? body
          : isPieces(body)
            ? concatBytes(body)
            : new Uint8Array(await body.arrayBuffer());
  if ((bytes?.length ?? Number(headers['content-length'] ?? 0)) < COMPRESS_FROM) return answer;
  headers['content-encoding'] = encoding;
  delete headers['content-length'];
  if (!/accept-encoding/i.test(headers.vary ?? ''))
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
  return { status: answer.status, headers, body: bytes && (await compress(bytes, encoding)) };
}
