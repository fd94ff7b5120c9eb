// @module-tag servers
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import { stringify } from 'yaml';
import type { ISpectralDiagnostic } from '@stoplight/spectral-core';
import { createOwaspRuleset } from './owasp.js';
import { contract, lint, only, type Contract } from './test-rule.ts';

const repoRoot = join(import.meta.dirname, '../../..');
const spectral = join(
  dirname(createRequire(import.meta.url).resolve('@stoplight/spectral-cli/package.json')),
  'dist/index.js',
);

/**
 * `spectral lint` as CI runs it, with the repository's .spectral-owasp.yaml: `extends:
 * ["@investor-graph/spectral-ruleset/owasp"]`.
 */
function lintCli(file: string) {
  const run = spawnSync(
    process.execPath,
    [
      spectral,
      'lint',
      file,
      '-r',
      join(repoRoot, '.spectral-owasp.yaml'),
      '--fail-severity=warn',
      '-f',
      'json',
      '--quiet',
    ],
    { encoding: 'utf8', cwd: repoRoot, timeout: 60_000 },
  );
  const results = JSON.parse(run.stdout.slice(run.stdout.indexOf('['))) as {
    code: string;
    severity: number;
    path: string[];
  }[];
  return { status: run.status, results, out: run.stdout + run.stderr };
}

/** A copy of the contract beside DECISIONS.md, as it sits in contracts/. */
function copyOf(document: Contract): string {
  const dir = mkdtempSync(join(tmpdir(), 'ig-owasp-'));
  copyFileSync(join(repoRoot, 'contracts/DECISIONS.md'), join(dir, 'DECISIONS.md'));
  writeFileSync(join(dir, 'openapi.yaml'), stringify(document, { aliasDuplicateObjects: false }));
  return join(dir, 'openapi.yaml');
}

/**
 * The OWASP option with only owasp:api8:2023-no-server-http, a whole rule of the option's own (three
 * seconds a lint with every rule, for each case); the tests of the whole option lint with all of it.
 */
const noServerHttp = 'owasp:api8:2023-no-server-http';
const serverRule = () => only(noServerHttp, createOwaspRuleset());

const at = (results: readonly { code: string | number; path: readonly (string | number)[] }[]) =>
  results.map((r) => `${r.code} ${r.path.join('.')}`);

test(`spectral lint with the OWASP option, extended by name, passes the kit's contract with zero errors and zero \
warnings`, () => {
  const run = lintCli(join(repoRoot, 'contracts/openapi.yaml'));
  expect(run.status, run.out).toBe(0);
  expect(at(run.results.filter((r) => r.severity <= 1))).toEqual([]);
});

test('a copy of the contract with one bound removed fails the OWASP option at that bound', () => {
  const d = contract();
  delete d.components.schemas.Firm.properties.name.maxLength;
  const run = lintCli(copyOf(d));
  expect(run.status).toBe(1);
  expect(at(run.results)).toEqual(['owasp:api4:2023-string-limit components.schemas.Firm.properties.name']);
});

test('each bound, format, header and error response OWASP asks for fails where the contract drops it', async () => {
  const d = contract();
  delete d.components.schemas.FirmPage.properties.data.maxItems;
  delete d.components.parameters.Limit.schema.maximum;
  delete d.components.schemas.Plan.properties.rows_per_page.format;
  delete d.paths['/api/v1/firms'].get.responses['500'];
  delete d.components.headers['Access-Control-Allow-Origin'];
  delete d.components.headers.ETag.schema.maxLength;
  const warning = 1 as ISpectralDiagnostic['severity']; // DiagnosticSeverity.Warning: errors are 0
  const found = at((await lint(d, createOwaspRuleset())).filter((r) => r.severity <= warning));
  expect(found).toEqual(
    expect.arrayContaining([
      'owasp:api4:2023-array-limit components.schemas.FirmPage.properties.data',
      'owasp:api4:2023-integer-limit components.parameters.Limit.schema',
      'owasp:api4:2023-integer-format components.schemas.Plan.properties.rows_per_page',
      'owasp:api8:2023-define-error-responses-500 paths./api/v1/firms.get.responses',
      'owasp:api8:2023-define-cors-origin components.headers',
      'owasp:api4:2023-string-limit components.headers.ETag.schema',
    ]),
  );
});

test(`the narrowed rules still fail where they apply: 401 and 429 of a data call, rate-limit headers, http off \
loopback, a parameter without a pattern`, async () => {
  const d = contract();
  const firms = d.paths['/api/v1/firms'].get;
  delete firms.responses['401'];
  delete firms.responses['429'];
  firms.responses['200'].headers = {
    'Access-Control-Allow-Origin': { $ref: '#/components/headers/Access-Control-Allow-Origin' },
  };
  delete d.components.responses.TooManyRequests.headers.RateLimit;
  d.servers[0].url = 'http://api.investorgraph.example';
  delete d.components.schemas.Cursor.pattern;
  delete d.components.schemas.TrialKeyRequest.properties.email.format;
  const results = await lint(d, createOwaspRuleset());
  expect(at(results)).toEqual(
    expect.arrayContaining([
      'owasp:api8:2023-define-error-responses-401 paths./api/v1/firms.get.responses',
      'owasp:api4:2023-rate-limit-responses-429 paths./api/v1/firms.get.responses',
      'owasp:api4:2023-rate-limit paths./api/v1/firms.get.responses.200',
      'owasp:api4:2023-rate-limit components.responses.TooManyRequests',
      'owasp:api8:2023-no-server-http servers.0.url',
      // Reported where the parameter's and the body's schemas are written.
      'owasp:api4:2023-string-restricted components.schemas.Cursor',
      'owasp:api4:2023-string-restricted components.schemas.TrialKeyRequest.properties.email',
    ]),
  );
  // Only the narrowed rules' own findings: the open operations and the served free text stay clean.
  const narrowed = results.filter((r) =>
    /define-error-responses-401|rate-limit|no-server-http|string-restricted/.test(String(r.code)),
  );
  expect(
    narrowed
      .map((r) => r.path.join('.'))
      .filter((p) => /openapi\.json|keys\/trial\.post\.responses|components\.schemas\.(Firm|Problem)\./.test(p)),
  ).toEqual([]);
});

test('plain http:// passes on loopback only, as the kit mock serves its own contract', async () => {
  const urls = {
    'http://127.0.0.1:4010': true,
    'http://localhost:4010/': true,
    'http://[::1]:4010': true,
    'https://api.investorgraph.example': true,
    'http://127.0.0.1.example.com': false,
    'http://10.0.0.5:4010': false,
  };
  const d = contract();
  d.servers = Object.keys(urls).map((url) => ({ ...d.servers[1], url }));
  const flagged = new Set(
    (await lint(d, serverRule())).filter((r) => r.code === noServerHttp).map((r) => d.servers[r.path[1] as number].url),
  );
  for (const [url, ok] of Object.entries(urls)) expect(flagged.has(url), url).toBe(!ok);
});

test(`a server variable whose default or enum makes the URL plain http:// off loopback is flagged like the \
literal`, async () => {
  const d = contract();
  const variable = d.servers[0].variables.base_url;
  for (const [values, flagged] of [
    [{ default: 'http://api.investorgraph.example' }, true],
    [
      {
        default: 'https://api.investorgraph.example',
        enum: ['https://api.investorgraph.example', 'http://staging.investorgraph.example'],
      },
      true,
    ],
    [{ default: 'https://api.investorgraph.example' }, false],
  ] as const) {
    d.servers[0].variables.base_url = { ...variable, ...values };
    const found = (await lint(d, serverRule())).filter((r) => r.code === noServerHttp);
    expect(
      found.map((r) => r.path.join('.')),
      JSON.stringify(values),
    ).toEqual(flagged ? ['servers.0.url'] : []);
  }
});

test("the OWASP option keeps the kit's own rules", async () => {
  const d = contract();
  d.paths['/firms'] = d.paths['/api/v1/firms'];
  delete d.paths['/api/v1/firms'];
  expect((await lint(d, createOwaspRuleset())).map((r) => r.code)).toContain('ig-paths-under-api-v1');
});

test("the contract's page bounds are the plan table's largest page", () => {
  const d = contract();
  const largest = Math.max(
    ...Object.values(d['x-plans'].plans as Record<string, { rows_per_page: number }>).map((p) => p.rows_per_page),
  );
  const pages = Object.entries(d.components.schemas as Record<string, any>).filter(([name]) => /Page$/.test(name));
  expect(pages.length).toBeGreaterThan(10);
  for (const [name, schema] of pages) expect(schema.properties.data.maxItems, name).toBe(largest);
  expect(d.components.schemas.Plan.properties.rows_per_page.maximum).toBe(largest);
});

test(`the contract as a mock serves it (its servers naming the mock on loopback, as the conformance suite holds it) \
passes the OWASP option too`, () => {
  const d = contract();
  (d as unknown as { servers: unknown[] }).servers = [
    { url: 'http://127.0.0.1:4010', description: 'Sandbox: this mock of the Investor Graph API', 'x-internal': false },
  ];
  const run = lintCli(copyOf(d));
  expect(at(run.results.filter((r) => r.severity <= 1))).toEqual([]);
  // Described as the mock described itself before, it fails.
  (d as unknown as { servers: unknown[] }).servers = [
    { url: 'http://127.0.0.1:4010', description: 'This mock of the Investor Graph API' },
  ];
  expect(at(lintCli(copyOf(d)).results.filter((r) => r.severity <= 1)).length).toBeGreaterThan(0);
});
