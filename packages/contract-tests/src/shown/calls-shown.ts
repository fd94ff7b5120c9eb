/**
 * The calls of a run as its report shows them: a failure's exchange (the request as sent and the
 * answer, keys blanked, the body cut as every failure cuts one), and the calls made of each
 * operation of the contract. The HTML report draws both; the JSON report carries them.
 */
import { operationFor, operations } from '@investor-graph/contract';
import { cutBody } from './cut-body.ts';
import { answerShown, withoutKeys } from './failure-text.ts';

/** One call and its answer. */
export interface ShownExchange {
  method: string;
  /** Path and query as sent, keys blanked (cursors kept whole, so that the call replays). */
  path: string;
  /**
   * The key it sent: the run's own (a replay reads it from $INVESTOR_GRAPH_KEY), another a check
   * chose (a wrong one, shown blanked), or none.
   */
  key: 'run' | 'other' | 'none';
  request_headers: Record<string, string>;
  request_body?: string;
  status: number;
  /** The answer's headers a reader of a failure looks at (type, length, caching, limits, auth). */
  headers: Record<string, string>;
  /** The body, cut (cut-body.ts); '' when there was none. */
  body: string;
}

const headersShown = new RegExp(
  `^(${[
    'content-(type|length|encoding)',
    'cache-control',
    'etag',
    'last-modified',
    'location',
    'retry-after',
    '(x-)?ratelimit(-.+)?',
    'www-authenticate',
    'allow',
    'vary',
    'deprecation',
    'sunset',
    'link',
  ].join('|')})$`,
);

/** What a report keeps of a call. */
export function shownExchange(
  call: { method: string; path: string; key: ShownExchange['key']; headers: Record<string, string>; body?: string },
  answer: { status: number; headers: Headers; text: string; bytes?: Uint8Array },
): ShownExchange {
  const body = answerShown(answer, 600).replace(/^\d+ /, '');
  return {
    method: call.method,
    path: cutBody(withoutKeys(call.path), 2000),
    key: call.key,
    // The Authorization header says whose key went, never the key.
    request_headers: Object.fromEntries(
      Object.entries(call.headers).map(([name, value]) => [
        name,
        name.toLowerCase() === 'authorization' && call.key === 'run' ? 'Bearer <key>' : withoutKeys(value),
      ]),
    ),
    ...(call.body === undefined ? {} : { request_body: cutBody(withoutKeys(call.body), 600) }),
    status: answer.status,
    headers: Object.fromEntries(
      [...answer.headers]
        .filter(([name]) => headersShown.test(name))
        .map(([name, value]) => [name, withoutKeys(value)]),
    ),
    body: body === 'with no body' ? '' : body,
  };
}

/** The operationId a call counts for (a HEAD for its GET's), or null off the contract. */
export function operationOf(method: string, path: string): string | null {
  const pathname = new URL(path, 'http://service.invalid').pathname;
  return operationFor(method === 'HEAD' ? 'GET' : method, pathname)?.operationId ?? null;
}

/** Every operation of the contract with the calls made of it (0 when none), in the contract's order. */
export function operationCalls(counted: ReadonlyMap<string | null, number>): Record<string, number> {
  return Object.fromEntries(operations.map((o) => [o.operationId, counted.get(o.operationId) ?? 0]));
}

/**
 * A call as it was made and its answer, whole. Its shown copy (keys blanked over the whole body,
 * then cut) is made when a failure or the report first asks for it: most calls are never shown,
 * and by then every key the run was handed since is known to the blanking.
 */
export class MadeCall {
  readonly #call: Parameters<typeof shownExchange>[0];
  readonly #answer: Parameters<typeof shownExchange>[1];
  #shown: ShownExchange | undefined;

  constructor(call: Parameters<typeof shownExchange>[0], answer: Parameters<typeof shownExchange>[1]) {
    this.#call = call;
    this.#answer = answer;
  }

  /** The copy a report keeps (calls-shown.ts), made once. */
  get shown(): ShownExchange {
    return (this.#shown ??= shownExchange(this.#call, this.#answer));
  }
}

/** Paths go into reports; cursors are long and say nothing to a reader. */
export function redact(path: string): string {
  return path.replace(/cursor=[^&]{24,}/, (m) => `${m.slice(0, 20)}...`);
}
