/**
 * A data call's request against the contract, through prism-http (injected: it does not bundle for
 * a browser). A GET's verdict depends only on what its memo key holds (the bearer key was checked
 * before), and profiled, prism-http's validateInput was ~9% of a request: repeated requests reuse it.
 */
import { LRUCache } from 'lru-cache';
import type { ContractValidator, Violation } from '@investor-graph/contract';
import type { Call } from '../context.ts';
import { ProblemError } from '../problems.ts';

/** Verdicts kept, the least recently used dropped first: enough for any client's working set. */
const MAX_VERDICTS = 2048;

export class RequestValidation {
  private readonly verdicts = new LRUCache<string, Violation[]>({ max: MAX_VERDICTS });
  private readonly validator: ContractValidator;

  constructor(validator: ContractValidator) {
    this.validator = validator;
  }

  /** Throws the 400 the call's request earns against the contract; returns when it is valid. */
  check(call: Call, request: Request): void {
    const { route } = call;
    const cacheable = request.method === 'GET' || request.method === 'HEAD';
    const memoKey = cacheable
      ? `${route.operationId}\n${request.method}\n${route.rawPath}\n${call.url.search}\n` +
        `${request.headers.get('if-none-match') ?? ''}`
      : '';
    let violations = cacheable ? this.verdicts.get(memoKey) : undefined;
    if (!violations) {
      violations = this.validator
        .validateRequest(route.operationId, {
          // HEAD is validated as the GET it stands for.
          method: request.method === 'HEAD' ? 'GET' : request.method,
          path: route.rawPath,
          query: Object.fromEntries(call.query),
          headers: Object.fromEntries(request.headers),
        })
        .filter((v) => v.severity === 'error');
      if (cacheable) this.verdicts.set(memoKey, violations);
    }
    if (violations.length) {
      const errors = violations.map((v) => ({
        parameter: v.path.replace(/^(query|path|header)\./, ''),
        detail: v.message,
      }));
      throw new ProblemError(
        call.query.has('cursor') && errors.every((e) => e.parameter === 'cursor')
          ? 'invalid_cursor'
          : 'invalid_parameter',
        errors.map((e) => e.detail).join('; '),
        { extra: { errors } },
      );
    }
  }
}
