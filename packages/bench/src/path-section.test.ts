// @module-tag servers
/**
 * `pnpm bench -- --only path`: the files one keyed GET runs are measured from the call itself, so
 * the data call's own steps are there and start-up's are not (a refused call would lack the read).
 */
import { expect, test } from 'vitest';
import { newKeyText } from '@investor-graph/mock';
import { pathSection } from './path-section.ts';

test('one keyed GET is measured as it runs: its steps, its read and its fast path, nothing of start-up', async () => {
  const { status, files } = await pathSection(newKeyText('enterprise'), 3);
  expect(status).toBe(200);
  const paths = Object.keys(files);
  for (const file of [
    'packages/engine/src/request/steps.ts',
    'packages/engine/src/operations/reads.ts',
    'packages/mock/src/adapters/node/fast-path.ts',
  ])
    expect(paths).toContain(file);
  expect(files['packages/engine/src/request/steps.ts']).toContain('dataCall');
  // Opening the dataset and building the engine ran once, before the measured call.
  expect(paths).not.toContain('packages/mock/src/cli/start-mock.ts');
  expect(paths.some((p) => p.startsWith('packages/bench/'))).toBe(false);
}, 60_000);
