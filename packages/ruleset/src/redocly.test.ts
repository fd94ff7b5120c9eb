/**
 * A second linter's opinion: Redocly's `recommended` rules (@redocly/openapi-core, the library
 * behind `redocly lint`) find nothing in the kit's contract, so the bounds, headers and error
 * responses added for OWASP did not trade one linter's findings for another's.
 */
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createConfig, lint } from '@redocly/openapi-core';
import { stringify } from 'yaml';
import { contract } from './test-rule.ts';

const repoRoot = join(import.meta.dirname, '../../..');

async function recommended(file: string): Promise<string[]> {
  const problems = await lint({ ref: file, config: await createConfig({ extends: ['recommended'] }) });
  return problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
}

test("Redocly's recommended rules find no problem in the kit's contract", async () => {
  expect(await recommended(join(repoRoot, 'contracts/openapi.yaml'))).toEqual([]);
});

test("Redocly's recommended rules find an operation without operationId in a copy", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ig-redocly-'));
  copyFileSync(join(repoRoot, 'contracts/DECISIONS.md'), join(dir, 'DECISIONS.md'));
  const d = contract();
  delete d.paths['/api/v1/firms'].get.operationId;
  writeFileSync(join(dir, 'openapi.yaml'), stringify(d, { aliasDuplicateObjects: false }));
  expect((await recommended(join(dir, 'openapi.yaml'))).join('\n')).toMatch(
    /operation-operationId #\/paths\/~1api~1v1~1firms\/get/,
  );
});
