// @module-tag servers
import { expect, test } from 'vitest';
import { freePort } from '@investor-graph/cli';
import { failureMessage } from './failure-said.ts';

test('a call that got no answer is said as the call failing, with its cause, not as a misread answer', async () => {
  const port = await freePort();
  const error = await fetch(`http://127.0.0.1:${port}/api/v1/firms`).then(
    () => null,
    (e: Error) => e,
  );
  expect(failureMessage({ title: 'every answer conforms' }, error)).toMatch(
    /^expected every answer conforms, got no answer: the call failed: ECONNREFUSED: /,
  );
});

test('a bug in the check is said as what it threw, its first line', () => {
  let error: Error | null = null;
  try {
    (undefined as unknown as { data: unknown[] }).data.map(String);
  } catch (e) {
    error = e as Error;
  }
  expect(failureMessage({ title: 'pages hold rows' }, error)).toMatch(
    /^expected pages hold rows, got no verdict: the check threw TypeError: Cannot read properties of undefined/,
  );
});
