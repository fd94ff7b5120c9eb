/**
 * testRule(code, breakages): the kit's own contract must pass the rule, and each breakage of it
 * must fail with that rule's code. Lints through spectral-core with the real ruleset.
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { Document, Spectral, type ISpectralDiagnostic } from '@stoplight/spectral-core';
import * as Parsers from '@stoplight/spectral-parsers';
import { parse, stringify } from 'yaml';
import { createRuleset } from './index.js';

const repoRoot = join(import.meta.dirname, '../../..');
export const contractText = readFileSync(join(repoRoot, 'contracts/openapi.yaml'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'ig-ruleset-'));
copyFileSync(join(repoRoot, 'contracts/DECISIONS.md'), join(dir, 'DECISIONS.md'));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed contract the tests edit at any depth
export type Contract = Record<string, any>;

export async function lint(document: Contract | string, ruleset = createRuleset()): Promise<ISpectralDiagnostic[]> {
  const text = typeof document === 'string' ? document : stringify(document, { aliasDuplicateObjects: false });
  // Beside a copy of DECISIONS.md, as the contract sits in contracts/.
  const source = join(dir, `openapi-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(source, text);
  const spectral = new Spectral();
  spectral.setRuleset(ruleset as never);
  return spectral.run(new Document(text, Parsers.Yaml, source));
}

export function contract(): Contract {
  return parse(contractText) as Contract;
}

/**
 * The ruleset `full` (the kit's, or its OWASP option) with only the rule under test: its own rule
 * alone, or, for a rule of an extended ruleset the kit gives a severity, that ruleset with every
 * other rule off. The same findings for that code, without linting the contract with every other
 * rule for each case, which made these files most of the ruleset's minutes.
 */
export function only<R extends { extends: unknown[]; rules: Record<string, unknown> }>(code: string, full: R): R {
  const rule = full.rules[code];
  // A code the ruleset does not name would lint nothing, and a "passes" case would pass unchecked.
  if (rule === undefined) throw new Error(`${code} is no rule of this ruleset`);
  if (typeof rule === 'object') return { ...full, extends: [], rules: { [code]: rule } };
  // A severity given to an extended ruleset's rule: that ruleset with every rule off but this one.
  const off = full.extends.map((entry): unknown => [Array.isArray(entry) ? (entry[0] as unknown) : entry, 'off']);
  return { ...full, extends: off, rules: { [code]: rule } };
}

export function testRule(
  code: string,
  breakages: { name: string; break: (doc: Contract) => void; at?: string }[],
): void {
  test(`${code}: the kit's contract passes`, async () => {
    const results = (await lint(contractText, only(code, createRuleset()))).filter((r) => r.code === code);
    expect(results.map((r) => `${r.message} at ${r.path.join('.')}`)).toEqual([]);
  });
  for (const breakage of breakages) {
    test(`${code}: ${breakage.name} fails`, async () => {
      const doc = contract();
      breakage.break(doc);
      const results = (await lint(doc, only(code, createRuleset()))).filter((r) => r.code === code);
      expect(results.length, `expected ${code}`).toBeGreaterThan(0);
      expect(results[0]!.severity).toBe(0);
      if (breakage.at) expect(results.map((r) => r.path.join('.'))).toContain(breakage.at);
    });
  }
}
