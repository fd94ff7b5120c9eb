/**
 * A data call's request against the contract, through prism-http (injected: it does not bundle for
 * a browser). A GET's verdict depends only on what its memo key holds (the bearer key was checked
 * before), and profiled, prism-http's validateInput was ~9% of a request: repeated requests reuse it.
 */
import { LRUCache } from 'lru-cache';
import type { ContractValidator, Violation } from '@investor-graph/contract';
import type { Call } from './context.ts';
import { ProblemError } from './problems.ts';
import { statisticNames } from './statistics.ts';

/** Verdicts kept, the least recently used dropped first: enough for any client's working set. */
const MAX_VERDICTS = 2048;

export class RequestValidation {
  private readonly verdicts = new LRUCache<string, Violation[]>({ max: MAX_VERDICTS });
  private readonly validator: ContractValidator;

  constructor(validator: ContractValidator) {
    this.validator = validator;
  }

  /** Throws the 400 (or the unknown statistic's 404) the call's request earns; returns when it is valid. */
  check(call: Call, request: Request): void {
    const { route } = call;
    if (route.operationId === 'getStatistic' && !statisticNames.includes(route.params.get('name')!)) {
      // A name identifies a resource: unknown is 404 with the allowed ones (DECISIONS.md#statistics-shapes).
      throw new ProblemError('unknown_statistic', `There is no statistic named "${route.params.get('name')}".`, { extra: { allowed: [...statisticNames] } });
    }
    const cacheable = request.method === 'GET' || request.method === 'HEAD';
    const memoKey = cacheable ? `${route.operationId}\n${request.method}\n${route.rawPath}\n${call.url.search}\n${request.headers.get('if-none-match') ?? ''}` : '';
    let violations = cacheable ? this.verdicts.get(memoKey) : undefined;
    if (!violations) {
      violations = this.validator.validateRequest(route.operationId, {
        // HEAD is validated as the GET it stands for.
        method: request.method === 'HEAD' ? 'GET' : request.method,
        path: route.rawPath,
        query: Object.fromEntries(call.query),
        headers: Object.fromEntries(request.headers),
      }).filter((v) => v.severity === 'error');
      if (cacheable) this.verdicts.set(memoKey, violations);
    }
    if (violations.length) {
      const errors = violations.map((v) => ({ parameter: v.path.replace(/^(query|path|header)\./, ''), detail: v.message }));
      throw new ProblemError(call.query.has('cursor') && errors.every((e) => e.parameter === 'cursor') ? 'invalid_cursor' : 'invalid_parameter', errors.map((e) => e.detail).join('; '), { extra: { errors } });
    }
  }
}

