/** Small synchronous hashes: ETags and content hashes must not need an await inside the engine. */

/** FNV-1a over UTF-16 code units, 2 x 32 bits, as 16 hex characters. Not cryptographic. */
export function fnv64(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x01000193) ^ (h1 >>> 7);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

const meta = new Set(['service_url', 'updated_at', 'first_seen_at']);

/** The content hash of a row: every field but the three the service itself stamps. */
export function contentHash(row: Record<string, unknown>): string {
  return fnv64(JSON.stringify(row, (key, value: unknown) => (meta.has(key) ? undefined : value)));
}

const encoder = new TextEncoder();

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The bytes of canonical base64url text, or null. Only the one text `base64url` writes for those
 * bytes is taken: the last character of a group may carry bits the bytes do not use, and a text
 * differing only there (a cursor with its last character changed) is not the text that was issued.
 */
export function fromBase64url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  let bytes: Uint8Array;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
    bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
  return base64url(bytes) === text ? bytes : null;
}

/**
 * Node's own crypto when the engine runs under Node (the server, MSW in Node tests), reached
 * without an import so that the engine still loads in a browser, where WebCrypto and FNV stand in.
 * Profiled: a key's SHA-256 through async WebCrypto cost ~58 µs a call, synchronously ~3 µs.
 */
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as typeof import('node:crypto') | undefined;

export function sha256Hex(text: string): Promise<string> {
  // The one-shot hash builds no Hash object: half the time of createHash for a key.
  if (nodeCrypto) return Promise.resolve(nodeCrypto.hash('sha256', text, 'hex'));
  return sha256HexBytes(encoder.encode(text));
}

/**
 * SHA-256 over bytes that come in pieces (a dump as it is compressed): under Node each piece is
 * hashed as it comes, so no one call hashes a whole dump; WebCrypto, which has no incremental
 * digest, hashes them together at the end, off the main thread.
 */
export function sha256Pieces(): { update(bytes: Uint8Array): void; hex(): Promise<string> } {
  if (nodeCrypto) {
    const hash = nodeCrypto.createHash('sha256');
    return {
      update: (bytes) => void hash.update(bytes),
      hex: async () => hash.digest('hex'),
    };
  }
  const pieces: Uint8Array[] = [];
  return { update: (bytes) => void pieces.push(bytes), hex: () => sha256HexBytes(concatBytes(pieces)) };
}

/** The pieces as one array. */
export function concatBytes(pieces: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const piece of pieces) {
    all.set(piece, at);
    at += piece.length;
  }
  return all;
}

export async function sha256HexBytes(bytes: Uint8Array): Promise<string> {
  if (nodeCrypto) return nodeCrypto.createHash('sha256').update(bytes).digest('hex');
  const digest = await crypto.subtle.digest('SHA-256', bytes as BufferSource);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * HMAC-SHA256 under one secret, for signing cursors: native and synchronous under Node (the
 * profile had WebCrypto's asynchronous sign at ~7% of a page request), WebCrypto elsewhere.
 */
export function hmacSha256(secret: string): (data: string) => Promise<Uint8Array> {
  if (nodeCrypto) {
    const crypto = nodeCrypto;
    return (data) => Promise.resolve(new Uint8Array(crypto.createHmac('sha256', secret).update(data).digest()));
  }
  const key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return async (data) => new Uint8Array(await crypto.subtle.sign('HMAC', await key, encoder.encode(data)));
}

/**
 * Request ids: a random prefix per engine and a counter, so a request costs no random bytes (the
 * profile had ~2% in getRandomValues). They identify a request; they guard nothing.
 */
export function requestIds(): () => string {
  const prefix = randomToken(8);
  let n = 0;
  return () => `req_${prefix}${(n++).toString(36).padStart(8, '0')}`;
}

/**
 * An entity tag for a response body, 16 hex digits: SHA-1 where
 * native (a 30 KB page in ~40 µs), FNV otherwise (~130 µs).
 */
export function etagOf(text: string): string {
  return nodeCrypto ? nodeCrypto.hash('sha1', text, 'hex').slice(0, 16) : fnv64(text);
}

/** Compares two equal-purpose strings in time that depends only on their length. */
export function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
}

export function randomToken(
  length: number,
  alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
): string {
  // Rejection sampling keeps every character equally likely.
  const out: string[] = [];
  const limit = 256 - (256 % alphabet.length);
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < limit && out.length < length) out.push(alphabet[b % alphabet.length]!);
    }
  }
  return out.join('');
}
