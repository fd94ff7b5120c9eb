import { expect, test } from 'vitest';
import type { PropertyResult } from '../core/run.ts';
import { errorText, propertyOutcome } from './property-lines.ts';

test("a long failure's progress line keeps what the service did, cutting the expected first (regression)", () => {
  const message =
    `[contract-tests] the run could not get ready: GET /api/v1/firms?limit=5: expected ` +
    `${'a 200 JSON envelope of records '.repeat(8)}, got 502 (text/html): bad gateway`;
  const result = {
    id: 'conforms',
    status: 'failed',
    runs: 0,
    spent: { calls: 0, rows: 0 },
    failure: { message, counterexample: '', path: null, replay: '' },
  } as unknown as PropertyResult;
  const { detail } = propertyOutcome(result, 'team');
  expect(detail).toMatch(/…, got 502 \(text\/html\): bad gateway$/);
  expect(detail.length).toBeLessThan(260);
});

test("an error shows its first non-empty lines, to ~300 characters: esbuild's second says where (regression)", () => {
  const esbuild =
    'Transform failed with 1 error:\n\n/x/suite.ts:3:8: ERROR: Expected identifier but found ' +
    '"="\n    at failureErrorWithLog (esbuild)';
  expect(errorText([{ message: esbuild }])).toBe(
    'Transform failed with 1 error: /x/suite.ts:3:8: ERROR: Expected identifier but found ' +
      '"=" at failureErrorWithLog (esbuild)',
  );
  expect(errorText([{ message: 'x'.repeat(400) }, { message: 'second' }])).toMatch(/^x{299}… \(and 1 more\)$/);
});
