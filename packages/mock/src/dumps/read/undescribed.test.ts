import { expect, test } from 'vitest';
import { resources, type Row } from '@investor-graph/dataset-tools';
import { loadDataset } from '@investor-graph/dataset-tools/node';
import { datasetDir } from '@investor-graph/dataset';
import { RowReport } from './undescribed.ts';

const dataset = await loadDataset(datasetDir);
const firm = (): Row => structuredClone(dataset.rows.firm[0]!);
const round = (): Row => structuredClone(dataset.rows.round[0]!);

test('a dump of the rows the kit generates reports nothing', () => {
  const report = new RowReport();
  for (const r of resources) for (const row of dataset.rows[r.name]) report.check(r.name, row);
  expect(report.lines()).toEqual([]);
});

test('fields the contract does not know are counted by resource and field, nested ones by their path', () => {
  const report = new RowReport();
  for (let i = 0; i < 3; i++) report.check('firm', { ...firm(), internal_score: i });
  const withExtra = round();
  withExtra.lead_firms = [{ ...(withExtra.lead_firms as Row[])[0], desk: 'B' }];
  report.check('round', withExtra);
  expect(report.lines()).toEqual([
    '[investor-graph mock] the dump holds what the contract does not describe; served as the dump holds it:',
    '  firm: 3 rows with fields the contract does not know: internal_score (3)',
    '  round: 1 row with fields the contract does not know: lead_firms[].desk (1)',
  ]);
});

test('a required field missing is counted by the field', () => {
  const report = new RowReport();
  const row = round();
  delete row.currency;
  delete row.stage;
  report.check('round', row);
  expect(report.lines()[1]).toBe('  round: 1 row without fields the contract requires: stage (1), currency (1)');
});

test("a value out of the contract's bounds is counted by the field, with what the contract asks of it", () => {
  const report = new RowReport();
  report.check('firm', { ...firm(), founded_year: 1500 });
  report.check('firm', { ...firm(), founded_year: 1600, hq_country: 'usa' });
  report.check('round', { ...round(), announced_on: '2026-02-30', amount_usd: 'a lot' });
  expect(report.lines().slice(1)).toEqual([
    "  firm: 2 rows with values out of the contract's bounds: founded_year (2, must be >= 1800), " +
      'hq_country (1, must NOT have more than 2 characters)',
    '  round: 1 row with values out of the contract\'s bounds: announced_on (1, must match format "date"), ' +
      'amount_usd (1, must be integer,null)',
  ]);
});

test('rows that cannot be served are said, by why, and notes about the dump as a whole after them', () => {
  const report = new RowReport();
  report.dropped('investment', 'no id');
  report.dropped('investment', 'no id');
  report.dropped('investment', 'id repeated (the first served)');
  report.note('people.jsonl.gz: of a resource the contract does not have (person): not read');
  expect(report.lines().slice(1)).toEqual([
    '  investment: 3 rows NOT served: no id (2), id repeated (the first served) (1)',
    '  people.jsonl.gz: of a resource the contract does not have (person): not read',
  ]);
});

test('a line names five fields and counts the rest', () => {
  const report = new RowReport();
  report.check('firm', { ...firm(), a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1 });
  expect(report.lines()[1]).toBe(
    '  firm: 1 row with fields the contract does not know: a (1), b (1), c (1), d (1), e (1) and 2 more fields',
  );
});
