/**
 * The rule matrix holds every rule: each rule line of the spec (contracts/SPEC.md) and each heading
 * of contracts/DECISIONS.md has a row; each row names checks that exist, or says why none can.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { checkExists, matrix, matrixResults, matrixScore, mergeMatrix, renderMatrix, type MatrixResult } from './rule-matrix.ts';

const contracts = new URL('../../../contracts/', import.meta.url);
const spec = readFileSync(new URL('SPEC.md', contracts), 'utf8');
const decisions = readFileSync(new URL('DECISIONS.md', contracts), 'utf8');

/** The spec's rules: every bullet, numbered item and table row (not a table's head or rule). */
function specRules(text: string): string[] {
  const lines = text.split('\n');
  return lines.filter((line, i) => /^(- |\d+\. )/.test(line) || (line.startsWith('| ') && !lines[i + 1]?.startsWith('|---')));
}

const anchors = [...decisions.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-'));

test('every rule of the spec has a row, and every row quotes the spec as it is', () => {
  const rules = specRules(spec);
  expect(rules.length).toBeGreaterThan(80);
  const quotes = matrix.flatMap((row) => row.spec ?? []);
  expect(rules.filter((line) => !quotes.some((q) => line.includes(q))), 'spec rules without a row').toEqual([]);
  expect(quotes.filter((q) => !rules.some((line) => line.includes(q))), 'quotes that are no rule of the spec').toEqual([]);
});

test('every decision of DECISIONS.md has a row, and every row names a heading there', () => {
  const named = matrix.flatMap((row) => row.decisions ?? []);
  expect(anchors.filter((a) => !named.includes(a)), 'decisions without a row').toEqual([]);
  expect(named.filter((a) => !anchors.includes(a)), 'rows naming no decision').toEqual([]);
});

test('every row is checked by properties and rules that exist, or says why it cannot be', () => {
  const ids = matrix.map((row) => row.id);
  expect(new Set(ids).size, 'row ids are unique').toBe(ids.length);
  for (const row of matrix) {
    expect([!!row.checks?.length, !!row.notCheckable, !!row.todo].filter(Boolean), `${row.id}: checks, a reason it cannot be checked, or what is missing: one of them`).toHaveLength(1);
    expect((row.checks ?? []).filter((c) => !checkExists(c)), `${row.id} names checks that do not exist`).toEqual([]);
    expect(row.spec?.length || row.decisions?.length, `${row.id} rests on the spec or a decision`).toBeTruthy();
  }
});

test('the README holds the matrix as the rows say it', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const block = /<!-- rule-matrix:start -->\n([^]*)<!-- rule-matrix:end -->/.exec(readme)?.[1];
  expect(block, 'run: node rule-matrix-readme.ts').toBe(renderMatrix());
});

test('a row no key of the run can check says which plan it needs, and the runs of several keys merge: broken by any, else held by any', () => {
  const passed = new Map(['conforms', 'envelope', 'auth', 'plan-features', 'filters', 'bad-input'].map((id) => [id, { status: 'passed' }]));
  const trial = matrixResults({ properties: passed, rules: new Map(), calls: 30, plan: 'trial' });
  const feed = (results: MatrixResult[]) => results.find((r) => r.id === 'changes-feed-complete')!;
  expect(feed(trial)).toMatchObject({ outcome: 'skipped', reason: 'needs a key of team or business or enterprise or payg' });
  const team = matrixResults({ properties: new Map([...passed, ['changes', { status: 'passed' }]]), rules: new Map(), calls: 30, plan: 'team' });
  expect(feed(mergeMatrix([trial, team], ['trial', 'team'])).outcome).toBe('held');
  expect(feed(mergeMatrix([trial], ['trial'])).reason).toMatch(/^needs a key of/);
  // A rule broken under one key breaks the row whatever the other key saw.
  const broken = matrixResults({ properties: passed, rules: new Map([['no-people', 2]]), calls: 30, plan: 'team' });
  expect(mergeMatrix([trial, broken], ['trial', 'team']).find((r) => r.id === 'no-people')!.outcome).toBe('broken');
  expect(matrixScore(mergeMatrix([trial, broken], ['trial', 'team'])).held).toBeLessThan(matrixScore(mergeMatrix([trial, team], ['trial', 'team'])).held);
});
