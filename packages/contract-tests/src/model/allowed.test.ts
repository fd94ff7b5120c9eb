import { describe, expect, test } from 'vitest';
import { sentenceOf } from '../sentences/pointer-sentences.ts';
import { behaviourOnly } from './allowed.ts';

describe("an answer's as_of judged against the data the model holds of the service", () => {
  const back = { pointer: '/as_of', service: '2026-11-19T03:00:00Z', model: '2026-11-20T03:00:00Z' };
  const rows = { pointer: '/data/0/name', service: 'a', model: 'b' };

  test('one that moved past it leaves the data unjudged, its as_of too', () => {
    expect(behaviourOnly([back, rows], { operationId: 'getCompany', hasData: false })).toEqual([]);
  });

  test('one that went back before it is a difference, named by the as_of sentence, with data or without', () => {
    for (const hasData of [true, false])
      expect(behaviourOnly([back], { operationId: 'getCompany', hasData, asOfBehind: true })).toEqual([back]);
    expect(sentenceOf('/as_of', 'getCompany')).toMatch(/^spec 1.31: /);
  });
});
