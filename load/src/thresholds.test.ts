import { expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import type { SummaryData } from '../lib/summary.js';
import { judge, parseThreshold, percentilesAsked } from './thresholds.ts';

const data = (): SummaryData => ({
  metrics: {
    http_req_duration: { type: 'trend', contains: 'time', values: { 'p(95)': 480, avg: 120 } },
    unexpected_429: { type: 'counter', contains: 'default', values: { count: 0, rate: 0 } },
    burst_served: { type: 'counter', contains: 'default', values: { count: 900, rate: 31 } },
    'checks{scenario:changes_poll}': { type: 'rate', contains: 'default', values: { rate: 0, passes: 0, fails: 0 } },
    checks: { type: 'rate', contains: 'default', values: { rate: 0.98, passes: 98, fails: 2 } },
  },
});

test('thresholds read as k6 writes them: aggregation, operator, number', () => {
  expect(parseThreshold('p(99.9) <= 1.5e3')).toMatchObject({ aggregation: 'p(99.9)', operator: '<=', bound: 1500 });
  expect(() => parseThreshold('p95 < 500')).toThrow(/not AGGREGATION OPERATOR NUMBER/);
  expect(percentilesAsked({ a: ['p(95)<500', 'avg<100'], b: ['p(99)<900', 'p(95)<200'] })).toEqual(['p(95)', 'p(99)']);
});

test("each threshold is judged on its metric's figure and written into the data as k6 writes it", () => {
  const d = data();
  const verdicts = judge(d, {
    http_req_duration: ['p(95)<500', 'avg<100'],
    unexpected_429: ['count==0'],
    burst_served: ['rate<=30'],
    checks: ['rate==1'],
  });
  expect(verdicts.map((v) => [v.expression, v.ok, v.figure])).toEqual([
    ['p(95)<500', true, 480],
    ['avg<100', false, 120],
    ['count==0', true, 0],
    ['rate<=30', false, 31],
    ['rate==1', false, 0.98],
  ]);
  expect(d.metrics.http_req_duration!.thresholds).toEqual({ 'p(95)<500': { ok: true }, 'avg<100': { ok: false } });
});

test('as in k6 v2, a rate no sample reached passes its threshold, and a metric the run lacks fails it', () => {
  const verdicts = judge(data(), {
    'checks{scenario:changes_poll}': ['rate==1'],
    'walk_rows{scenario:cursor_walk}': ['count>0'],
  });
  expect(verdicts.map((v) => v.ok)).toEqual([true, false]);
  expect(verdicts[1]!.figure).toBeUndefined();
});

test(`no threshold of a plan's script holds whatever happens: each can fail (count>=0 and the like are \
refused)`, async () => {
  const { planOptions, runInputs } = await import('../lib/plan-options.js');
  const table = JSON.parse(readFileSync(new URL('../lib/plans.json', import.meta.url), 'utf8'));
  for (const plan of Object.keys(table.plans)) {
    const { thresholds } = planOptions(table, plan, runInputs({}));
    for (const [metric, expressions] of Object.entries(thresholds)) {
      for (const expression of expressions) {
        const { aggregation, operator, bound } = parseThreshold(expression);
        const always =
          (aggregation === 'count' && ((operator === '>=' && bound <= 0) || (operator === '>' && bound < 0))) ||
          (aggregation === 'rate' && ((operator === '>=' && bound <= 0) || (operator === '<=' && bound >= 1)));
        expect(always, `${plan}: ${metric} ${expression} cannot fail`).toBe(false);
      }
    }
  }
});
