/**
 * What the model compares of one answer with the service's (issue #65): the status, a problem's
 * code, title and actions, every header the contract or DECISIONS.md fixes, and the body member by
 * member (JSON pointers), rows and their order. What may differ by decision is skipped here, each
 * skip by its row of `allowedDifferences` (DECISIONS.md#model-comparison): never by a silent `if`.
 */

export interface Side {
  status: number;
  headers: Headers;
  body: unknown;
}

export interface Difference {
  /** `/status`, `header:cache-control`, `/data/3/amount`... */
  pointer: string;
  service: unknown;
  model: unknown;
}

/** Headers whose value the contract or DECISIONS.md fixes for an answer as it stands. */
const fixedHeaders = [
  'content-type',
  'cache-control',
  'vary',
  'www-authenticate',
  'allow',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'ratelimit-policy',
  'preference-applied',
] as const;

/**
 * Members of a body that differ by decision between two correct services (a row of
 * allowedDifferences each): who made the call, when, and the run's own ids.
 */
const openMembers = new Set([
  '/request_id',
  '/instance',
  '/usage',
  '/next_cursor',
  '/data/keys',
  '/data/usage',
  '/data/balance',
]);

/** Members whose value differs between two correct services wherever they are: a link, a sentence's wording. */
const openLeaves = new Set(['url', 'detail']);

/** The differences between two answers to one request, in a stable order. */
export function compareAnswers(service: Side, model: Side): Difference[] {
  const out: Difference[] = [];
  if (service.status !== model.status) return [{ pointer: 'status', service: service.status, model: model.status }];
  for (const name of fixedHeaders) {
    const s = normalHeader(name, service.headers.get(name));
    const m = normalHeader(name, model.headers.get(name));
    if (s !== m) out.push({ pointer: `header:${name}`, service: s, model: m });
  }
  if (service.headers.has('retry-after') !== model.headers.has('retry-after'))
    out.push({
      pointer: 'header:retry-after',
      service: service.headers.get('retry-after'),
      model: model.headers.get('retry-after'),
    });
  if ((service.headers.get('etag') === null) !== (model.headers.get('etag') === null))
    out.push({ pointer: 'header:etag', service: service.headers.get('etag'), model: model.headers.get('etag') });
  const cursorShown = (body: unknown) => (body as { next_cursor?: unknown } | null)?.next_cursor ?? null;
  if ((cursorShown(service.body) === null) !== (cursorShown(model.body) === null))
    out.push({ pointer: '/next_cursor', service: cursorShown(service.body), model: cursorShown(model.body) });
  compareValues('', service.body, model.body, out);
  return out;
}

/** A header as compared: its parts in order, spaces and case of the media type aside. */
function normalHeader(name: string, value: string | null): string | null {
  if (value === null) return null;
  if (name === 'vary' || name === 'access-control-expose-headers' || name === 'allow')
    return (
      value
        .split(',')
        .map((v) => v.trim().toLowerCase())
        // Whether the server in front compresses is the transport's, not the API's.
        .filter((v) => v !== 'accept-encoding')
        .sort()
        .join(', ')
    );
  if (name === 'content-type') return value.replace(/\s+/g, '').toLowerCase();
  return value.trim();
}

function compareValues(pointer: string, service: unknown, model: unknown, out: Difference[]): void {
  if (openMembers.has(pointer) || openLeaves.has(pointer.slice(pointer.lastIndexOf('/') + 1))) return;
  if (out.length >= 50) return;
  if (Array.isArray(service) && Array.isArray(model)) {
    if (service.length !== model.length)
      out.push({ pointer: `${pointer}/length`, service: service.length, model: model.length });
    for (let i = 0; i < Math.min(service.length, model.length); i++)
      compareValues(`${pointer}/${i}`, service[i], model[i], out);
    return;
  }
  if (isRecord(service) && isRecord(model)) {
    for (const name of new Set([...Object.keys(service), ...Object.keys(model)]))
      compareValues(`${pointer}/${escapePointer(name)}`, service[name], model[name], out);
    return;
  }
  if (!Object.is(service, model)) out.push({ pointer: pointer || '/', service, model });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const escapePointer = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');
