import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { validate } from '@readme/openapi-parser';
import { parse } from 'yaml';
import { Spectral, Document, type ISpectralDiagnostic } from '@stoplight/spectral-core';
import * as Parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { contractPath, renderGenerated, repoRoot } from './generate.ts';
import { operations, openapiDocument } from './index.ts';

const specOperations = [
  'POST /api/v1/keys/trial',
  'GET /api/v1/firms',
  'GET /api/v1/firms/{slug}',
  'GET /api/v1/firms/{slug}/portfolio',
  'GET /api/v1/firms/{slug}/filings',
  'GET /api/v1/firms/{slug}/funds',
  'GET /api/v1/companies',
  'GET /api/v1/companies/{slug}',
  'GET /api/v1/companies/{slug}/rounds',
  'GET /api/v1/companies/{slug}/investors',
  'GET /api/v1/companies/{slug}/offerings',
  'GET /api/v1/rounds',
  'GET /api/v1/investments',
  'GET /api/v1/funds',
  'GET /api/v1/funds/{id}',
  'GET /api/v1/filings',
  'GET /api/v1/offerings',
  'GET /api/v1/adv-funds',
  'GET /api/v1/lists',
  'GET /api/v1/lists/{slug}',
  'GET /api/v1/changes',
  'GET /api/v1/exports',
  'GET /api/v1/exports/{date}/{file}',
  'GET /api/v1/statistics/{name}',
  'GET /api/v1/account',
];

test('the contract is a valid OpenAPI 3.1 document with the JSON Schema 2020-12 dialect', async () => {
  const result = await validate(contractPath);
  expect(result.valid ? [] : result.errors).toEqual([]);
  expect(result.valid).toBe(true);
  expect(openapiDocument.openapi).toBe('3.1.0');
  // prism-http skips body validation under the OAS base dialect: the 2020-12 URI keeps it on.
  expect(openapiDocument.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
});

test('spectral:oas finds no error and no warning in the contract', async () => {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [oas as never] });
  const text = await readFile(contractPath, 'utf8');
  const results = await spectral.run(new Document(text, Parsers.Yaml, contractPath));
  const warning = 1 as ISpectralDiagnostic['severity']; // DiagnosticSeverity.Warning: errors are 0
  expect(
    results.filter((r) => r.severity <= warning).map((r) => `${r.code}: ${r.message} at ${r.path.join('.')}`),
  ).toEqual([]);
});

test('the contract has all 25 operations of the spec plus the openapi document, each described', () => {
  const have = operations.map((o) => `${o.method} ${o.path}`);
  expect(have).toEqual(expect.arrayContaining([...specOperations, 'GET /api/v1/openapi.json']));
  expect(have).toHaveLength(26);
  for (const [path, item] of Object.entries(openapiDocument.paths)) {
    for (const op of Object.values(item as Record<string, Record<string, unknown>>)) {
      expect(op.operationId, path).toMatch(/^[a-z][A-Za-z]+$/);
      expect((op.tags as string[]).length, path).toBe(1);
      expect(op.summary, path).toBeTruthy();
      expect(op.description, path).toBeTruthy();
    }
  }
});

test('only the trial call and the openapi document go without bearer security', () => {
  const open = operations.filter((o) => !o.security).map((o) => o.operationId);
  expect(open.sort()).toEqual(['createTrialKey', 'getOpenApiDocument']);
  expect(openapiDocument.security).toEqual([{ bearerAuth: [] }]);
});

test('every x-assumed marker points at a heading of DECISIONS.md, and every heading is marked somewhere', async () => {
  const decisions = await readFile(join(repoRoot, 'contracts/DECISIONS.md'), 'utf8');
  const anchors = new Set(
    [...decisions.matchAll(/^## (.+)$/gm)].map((m) =>
      m[1]!
        .toLowerCase()
        .replace(/[^a-z0-9 -]/g, '')
        .replace(/ /g, '-'),
    ),
  );
  const markers: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === 'x-assumed') markers.push(...(Array.isArray(v) ? v : [v]));
        else walk(v);
      }
    }
  };
  walk(parse(await readFile(contractPath, 'utf8')));
  const targets = markers.map((m) => {
    expect(m).toMatch(/^DECISIONS\.md#[a-z0-9-]+$/);
    return m.split('#')[1]!;
  });
  expect(targets.filter((t) => !anchors.has(t))).toEqual([]);
  expect([...anchors].filter((a) => !targets.includes(a))).toEqual([]);
});

test('no schema property describes a person', () => {
  const personal = new RegExp(
    '^(first_?name|last_?name|full_?name|person|people|founders?|partners?|team|roster|' +
      'email|e_mail|phone|mobile|linkedin|twitter|photo|avatar|headshot|contact)s?$',
    'i',
  );
  const found: string[] = [];
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}.${i}`));
    if (node && typeof node === 'object') {
      const props = (node as Record<string, unknown>).properties;
      if (props && typeof props === 'object')
        for (const name of Object.keys(props)) if (personal.test(name)) found.push(`${at}.${name}`);
      for (const [k, v] of Object.entries(node)) walk(v, `${at}.${k}`);
    }
  };
  walk(openapiDocument.components.schemas, 'schemas');
  // The trial request takes an e-mail to issue a key; it is never served back.
  expect(found).toEqual(['schemas.TrialKeyRequest.email']);
});

test('generated files are in step with the contract (run `pnpm generate` after editing it)', async () => {
  for (const [path, content] of Object.entries(await renderGenerated())) {
    expect(await readFile(join(repoRoot, path), 'utf8'), `${path} is stale: run pnpm generate`).toBe(content);
  }
});
