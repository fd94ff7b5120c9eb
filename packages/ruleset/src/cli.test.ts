// @module-tag servers
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import { stringify } from 'yaml';
import { contract } from './test-rule.ts';

const repoRoot = join(import.meta.dirname, '../../..');
const spectral = join(
  dirname(createRequire(import.meta.url).resolve('@stoplight/spectral-cli/package.json')),
  'dist/index.js',
);

function lintCli(file: string, junit: string) {
  // The repository's .spectral.yaml: `extends: ["@investor-graph/spectral-ruleset"]`.
  return spawnSync(
    process.execPath,
    [
      spectral,
      'lint',
      file,
      '-r',
      join(repoRoot, '.spectral.yaml'),
      '--fail-severity=warn',
      '-f',
      'junit',
      '-f',
      'text',
      '--output.junit',
      junit,
    ],
    { encoding: 'utf8', cwd: repoRoot, timeout: 60_000 },
  );
}

test('spectral lint passes the kit contract with zero errors and warnings, and writes JUnit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ig-spectral-'));
  const run = lintCli(join(repoRoot, 'contracts/openapi.yaml'), join(dir, 'junit.xml'));
  expect(run.status, run.stdout + run.stderr).toBe(0);
  const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
  expect(junit).toContain('<testsuites');
  expect(junit).not.toContain('<failure');
});

test('a contract with every rule broken fails the lint with each rule code in the JUnit report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ig-spectral-'));
  copyFileSync(join(repoRoot, 'contracts/DECISIONS.md'), join(dir, 'DECISIONS.md'));
  const d = contract();
  delete d.paths['/api/v1/firms'].get.operationId;
  d.paths['/v2/firms'] = { get: { ...d.paths['/api/v1/companies'].get, operationId: 'v2Firms' } };
  delete d.components.schemas.FirmPage.properties.usage;
  d.components.schemas.RoundPage.properties.next_cursor = { type: 'string' };
  delete d.components.schemas.Firm.properties.service_url;
  d.components.responses.PaymentRequired.content['application/problem+json'].schema = {
    $ref: '#/components/schemas/Problem',
  };
  delete d.components.responses.TooManyRequests.headers['Retry-After'];
  d.paths['/api/v1/rounds'].get.security = [];
  d.components.schemas.TrialKeyRequest = { type: 'object', properties: { address: { type: 'string' } } };
  d.components.schemas.Company.properties.founders = { type: 'array', items: { type: 'string' } };
  d.components.schemas.Round.properties.announced_on = { type: 'string', format: 'date-time' };
  d.components.schemas.StatisticName.enum.push('rounds-by-month');
  d.components.parameters.Cursor['x-assumed'] = 'DECISIONS.md#cursor-format';
  const file = join(dir, 'openapi.yaml');
  writeFileSync(file, stringify(d, { aliasDuplicateObjects: false }));
  const run = lintCli(file, join(dir, 'junit.xml'));
  expect(run.status).toBe(1);
  const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
  for (const code of [
    'operation-operationId',
    'ig-paths-under-api-v1',
    'ig-envelope',
    'ig-list-paging',
    'ig-row-fields',
    'ig-error-actions',
    'ig-429-retry-after',
    'ig-bearer-security',
    'ig-trial-call',
    'ig-no-person-fields',
    'ig-date-formats',
    'ig-statistics-names',
    'ig-x-assumed',
  ]) {
    expect(junit, code).toContain(code);
  }
});
