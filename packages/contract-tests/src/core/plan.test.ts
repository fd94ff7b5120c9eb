import { expect, test } from 'vitest';
import fc from 'fast-check';
import type { SuiteContext } from './context.ts';
import { planRun } from './plan.ts';
import type { Property } from '../properties.ts';

/** A property of `examples` boundary cases of `calls` calls each (generated ones too), or one case a run. */
const property = (
  id: string,
  calls: number,
  examples: number,
  options: { once?: boolean; skip?: string } = {},
): Property => ({
  id,
  title: id,
  spec: [],
  assumed: [],
  ...(options.once ? { once: true } : { examples: () => Array.from({ length: examples }, (_, i) => i) }),
  skip: () => options.skip ?? null,
  cost: () => ({ calls, rows: calls }),
  arbitrary: () => fc.constant(0),
  check: async () => {},
});
const ctx = {} as SuiteContext;
const counts = (plan: ReturnType<typeof planRun>) => plan.properties.map((p) => [p.id, p.boundary, p.generated]);

test('every boundary case of every property is planned first; generated ones share the rest in turn', () => {
  const all = [property('a', 1, 10), property('b', 5, 2), property('c', 20, 0, { once: true })];
  // Boundary: 10 + 10 + 20 = 40 calls; 30 left: a turn costs 1 + 5 = 6 (c is checked once), five turns.
  const plan = planRun(ctx, all, { calls: 70, rows: 70 }, 25);
  expect(counts(plan)).toEqual([
    ['a', 10, 5],
    ['b', 2, 5],
    ['c', 1, 0],
  ]);
  expect(plan.spend).toEqual({ calls: 70, rows: 70 });
  // --runs bounds the generated cases; what is left over is not spent.
  expect(counts(planRun(ctx, all, { calls: 1000, rows: 1000 }, 3))).toEqual([
    ['a', 10, 3],
    ['b', 2, 3],
    ['c', 1, 0],
  ]);
});

test("a budget short of the boundary cases cuts the dearest property's last first, to one each, then the last", () => {
  const all = [property('a', 1, 10), property('b', 5, 4), property('c', 20, 0, { once: true })];
  // 10 + 20 + 20 = 50 wanted, 40 given: b, planned dearest, loses cases until it fits.
  const plan = planRun(ctx, all, { calls: 40, rows: 40 }, 25);
  expect(plan.spend.calls).toBeLessThanOrEqual(40);
  expect(plan.properties.every((p) => p.boundary >= 1)).toBe(true);
  expect(plan.properties.find((p) => p.id === 'b')!.boundary).toBeLessThan(4);
  expect(plan.properties.every((p) => p.generated === 0)).toBe(true);
  const tight = planRun(ctx, all, { calls: 21, rows: 21 }, 25);
  // Down to one case each (26) is still too much: c loses its one, and what that freed goes back to a, then b.
  expect(counts(tight)).toEqual([
    ['a', 10, 0],
    ['b', 2, 0],
    ['c', 0, 0],
  ]);
  expect(tight.properties.find((p) => p.id === 'c')!.skip).toMatch(/does not cover one case/);
});

test('a property that cannot run here plans nothing and says why; the budget goes to the others', () => {
  const plan = planRun(
    ctx,
    [property('a', 1, 2), property('b', 1, 2, { skip: 'needs --use-control' })],
    { calls: 10, rows: 10 },
    25,
  );
  expect(plan.properties[1]).toMatchObject({ id: 'b', skip: 'needs --use-control', boundary: 0, generated: 0 });
  expect(counts(plan)[0]).toEqual(['a', 2, 8]);
});
