import { expect, test } from 'vitest';
import { planIds, type PlanId } from '@investor-graph/contract/plans';
import { ProblemError, problemTypes, type ProblemCode } from './problems.ts';

const codes = Object.keys(problemTypes) as ProblemCode[];
const choices: (PlanId | null)[] = [null, ...planIds];

test('every problem answers exactly the JSON of its body, on every plan, asked again or not', () => {
  for (const code of codes) {
    for (const plan of choices) {
      for (const suggested of choices) {
        for (const [instance, requestId] of [
          ['/api/v1/firms', 'req_a'],
          ['/api/v1/firms/a b|[x]%zz', 'req_b'],
          ['/api/v1/firms', 'req_a'],
        ] as const) {
          const problem = new ProblemError(code, `Detail of ${code}.`, { plan, suggested });
          const answer = problem.toAnswer(instance, requestId);
          expect(answer.body, `${code} ${plan} ${suggested} ${instance}`).toBe(
            JSON.stringify(problem.body(instance, requestId)),
          );
          expect(answer.status).toBe(problemTypes[code].status);
          expect(answer.headers['content-type']).toBe('application/problem+json');
          expect(answer.headers['x-request-id']).toBe(requestId);
        }
      }
    }
  }
});

test('a detail that holds the text a problem body is made around still gives the exact body', () => {
  for (const detail of ['"~instance~" and "~request-id~"', '~instance~', 'quote " backslash \\ and ~request-id~', '']) {
    for (const repeat of [1, 2]) {
      const problem = new ProblemError('not_found', detail);
      expect(problem.toAnswer('/api/v1/firms/x', `req_${repeat}`).body, detail).toBe(
        JSON.stringify(problem.body('/api/v1/firms/x', `req_${repeat}`)),
      );
    }
  }
});

test('a problem with more to say (errors, headers) keeps it in its body and headers', () => {
  const problem = new ProblemError('invalid_parameter', 'limit: too large', {
    extra: { errors: [{ parameter: 'limit', detail: 'too large' }] },
    headers: { 'retry-after': '3' },
  });
  const answer = problem.toAnswer('/api/v1/firms', 'req_c', { ratelimit: 'x' });
  expect(JSON.parse(answer.body as string)).toMatchObject({
    errors: [{ parameter: 'limit', detail: 'too large' }],
    instance: '/api/v1/firms',
    request_id: 'req_c',
  });
  expect(answer.body).toBe(JSON.stringify(problem.body('/api/v1/firms', 'req_c')));
  expect(answer.headers).toMatchObject({ 'retry-after': '3', ratelimit: 'x' });
});
