import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { SeedRun } from './cli-run.ts';
import { mutationBlock, refreshBenchmarks, type RunFigures } from './figures.ts';
import type { MutantSpec } from './operators.ts';
import { classify } from './score.ts';

const seed = (n: number, exit: number, changed: number, broken: string[] = []): SeedRun => ({
  seed: n,
  exit,
  ms: 20_000,
  changed,
  changedByOperation: {},
  broken,
});
const spec = (id: string, family: MutantSpec['family'], equivalent?: string): MutantSpec => ({
  id,
  family,
  operator: 'x',
  operation: 'listFirms',
  plan: 'enterprise',
  ...(equivalent ? { equivalent } : {}),
});

function setup(): RunFigures {
  return {
    date: '2026-11-27T03:00:00.000Z',
    node: 'v24.21.0',
    cpus: 2,
    complete: true,
    pickSeed: 1,
    seeds: [1, 2, 3],
    jobs: 2,
    enumerated: { total: 7661, byFamily: { rows: 125, header: 722 } },
    sampled: 4,
    ms: 3_600_000,
    baseline: [{ plan: 'enterprise', ...seed(1, 0, 0) }],
    results: [
      classify(spec('rows:swap:listFirms:data', 'rows'), [
        seed(1, 1, 2, ['pagination']),
        seed(2, 1, 2, ['pagination']),
        seed(3, 0, 2),
      ]),
      classify(spec('header:drop:listFirms:vary', 'header'), [seed(1, 0, 5), seed(2, 0, 5), seed(3, 0, 5)]),
      classify(spec('rows:repeat:listRounds:data', 'rows', 'why not'), [seed(1, 0, 1), seed(2, 0, 0), seed(3, 0, 0)]),
      classify(spec('header:drop:listRounds:etag', 'header'), [seed(1, 0, 0), seed(2, 0, 0), seed(3, 0, 0)]),
    ],
  };
}

test("the block gives the score, each family's outcomes and every survivor with the answers it changed", () => {
  const block = mutationBlock(setup());
  expect(block).toContain(
    '**Score: 50%** of the mutants reached (1 killed of 2), 33.3% counting the 1 candidate equivalents as survivors',
  );
  expect(block).toContain('| rows | 125 | 2 | 1 (0 / 1) | 0 | 1 | 0 | 0 |');
  expect(block).toContain('| header | 722 | 2 | 0 (0 / 0) | 1 | 0 | 1 | 0 |');
  expect(block).toContain('| `header:drop:listFirms:vary` | survived | 5 / 5 / 5 |');
  expect(block).toContain('| `rows:repeat:listRounds:data` | equivalent? why not | 1 / 0 / 0 |');
  expect(block).toContain('Killed on some seeds only: `rows:swap:listFirms:data` (1, 2; changed 2 / 2 / 2)');
});

test(`the block is written between the markers, the text around them kept, and a file without them is left \
alone`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'mutation-figures-'));
  const file = join(dir, 'BENCHMARKS.md');
  writeFileSync(file, 'before\n<!-- mutation:start -->\nold\n<!-- mutation:end -->\nafter\n');
  expect(refreshBenchmarks(file, setup())).toBe(true);
  const text = readFileSync(file, 'utf8');
  expect(text.startsWith('before\n<!-- mutation:start -->\nLast run 2026-11-27 03:00 UTC')).toBe(true);
  expect(text.endsWith('<!-- mutation:end -->\nafter\n')).toBe(true);
  expect(text).not.toContain('old');
  writeFileSync(file, 'no markers\n');
  expect(refreshBenchmarks(file, setup())).toBe(false);
  expect(readFileSync(file, 'utf8')).toBe('no markers\n');
});
