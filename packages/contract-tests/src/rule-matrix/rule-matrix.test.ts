/**
 * The rule matrix holds every sentence: each sentence of contracts/SPEC.md and contracts/DECISIONS.md
 * and each x-assumed spot of the contract has a row; each row names checks that exist and faults
 * that those checks are shown to catch, or says why it cannot be checked, or what is missing.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { faultNames } from '@investor-graph/mock';
import { claims, spotClaims } from '../sentences/claims.ts';
import { catchers, catchingChecks } from '../core/fault-catchers.test-support.ts';
import { sentences } from '../sentences/generated/sentences.ts';
import { checkExists, matrix, renderMatrix } from './rule-matrix.ts';
import { matrixResults, matrixScore, mergeMatrix, type MatrixResult } from './matrix-results.ts';
import { restingLines, scoreLine, unreachedLines } from './matrix-lines.ts';
import { anchorOf, decisionSentences, specSentences, splitSentences } from '../sentences/sentences.ts';

const contracts = new URL('../../../../contracts/', import.meta.url);
const spec = readFileSync(new URL('SPEC.md', contracts), 'utf8');
const decisions = readFileSync(new URL('DECISIONS.md', contracts), 'utf8');
const anchors = [...decisions.matchAll(/^## (.+)$/gm)].map((m) => anchorOf(m[1]!));

test('sentences end at a full stop before a capital, never inside 1.5 or a quoted one', () => {
  expect(splitSentences('Dates: `YYYY-MM-DD`. Files: `a.jsonl.gz`. Not `1.5` or `1e3`, here.')).toEqual([
    'Dates: `YYYY-MM-DD`.',
    'Files: `a.jsonl.gz`.',
    'Not `1.5` or `1e3`, here.',
  ]);
  expect(splitSentences('Spec: "Rows: not shown." Trial 2 a second.')).toEqual([
    'Spec: "Rows: not shown."',
    'Trial 2 a second.',
  ]);
});

test('the shipped sentences are the documents as they are now (node rule-matrix-readme.ts rewrites them)', () => {
  const parsed = [...specSentences(spec), ...decisionSentences(decisions)];
  expect(parsed.length).toBeGreaterThan(200);
  expect(sentences).toEqual(parsed);
  // Every table row and list item of the spec is in some sentence, whatever the parser does with prose.
  const lines = spec
    .split('\n')
    .filter((line, i, all) => /^(- |\d+\. )/.test(line) || (line.startsWith('| ') && !all[i + 1]?.startsWith('|---')));
  expect(
    lines.filter((line) => !sentences.some((s) => line.includes(s.text.slice(0, 40)))),
    'spec lines in no sentence',
  ).toEqual([]);
  // Every heading of DECISIONS.md has sentences of its own.
  expect(
    anchors.filter((a) => !sentences.some((s) => s.section === a)),
    'decisions without a sentence',
  ).toEqual([]);
});

test('every sentence is found by exactly one claim, and every fragment of a claim finds exactly one sentence', () => {
  const fragments = claims.flatMap((c) => c.says);
  const finders = (text: string) => fragments.filter((f) => text.includes(f));
  expect(
    sentences.filter((s) => finders(s.text).length === 0).map((s) => `${s.id}: ${s.text}`),
    'sentences without a row',
  ).toEqual([]);
  expect(
    sentences.filter((s) => finders(s.text).length > 1).map((s) => `${s.id}: ${finders(s.text).join(' / ')}`),
    'sentences found twice',
  ).toEqual([]);
  expect(
    fragments.filter((f) => sentences.filter((s) => s.text.includes(f)).length !== 1),
    'fragments that find no sentence or several',
  ).toEqual([]);
});

test('every row is checked by properties and rules that exist, or says why not, or is decided elsewhere', () => {
  const ids = matrix.map((row) => row.id);
  expect(new Set(ids).size, 'row ids are unique').toBe(ids.length);
  for (const row of matrix) {
    expect(
      [!!row.checks?.length, !!row.notCheckable, !!row.todo, !!row.decided?.length].filter(Boolean),
      `${row.id}: checks, a reason, what is missing or the decisions: one of them`,
    ).toHaveLength(1);
    expect(
      (row.checks ?? []).filter((c) => !checkExists(c)),
      `${row.id} names checks that do not exist`,
    ).toEqual([]);
    expect(
      (row.decided ?? []).filter((a) => !anchors.includes(a)),
      `${row.id} names decisions that do not exist`,
    ).toEqual([]);
    if (!row.checks) expect(row.faults ?? [], `${row.id}: a row without checks shows no fault`).toEqual([]);
  }
  expect(matrix.filter((r) => r.id.startsWith('contract ')).length, 'a row for every x-assumed spot').toBeGreaterThan(
    60,
  );
});

test("each fault a row names is a fault of the mock that one of the row's own checks catches", () => {
  for (const row of matrix) {
    for (const fault of row.faults ?? []) {
      expect(faultNames as readonly string[], `${row.id} names fault ${fault}`).toContain(fault);
      const catching = catchingChecks(catchers[fault as keyof typeof catchers]);
      expect(
        catching.some((c) => row.checks!.includes(c)),
        `${row.id}: ${fault} is caught by ${catching.join(', ')}, none of them a check of the ` +
          `row (${row.checks!.join(', ')})`,
      ).toBe(true);
    }
  }
});

test('the README holds the matrix as the rows say it', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const block = /<!-- rule-matrix:start -->\n([^]*)<!-- rule-matrix:end -->/.exec(readme)?.[1];
  expect(block, 'run: node rule-matrix-readme.ts').toBe(renderMatrix());
});

test('a row no key can check names the plan it needs; several keys merge: broken by any, else held by any', () => {
  const passed = new Map(
    ['conforms', 'envelope', 'auth', 'plan-features', 'filters', 'bad-input'].map((id) => [id, { status: 'passed' }]),
  );
  const feedRow = matrix.find((r) => r.checks?.length === 1 && r.checks[0] === 'changes')!.id;
  const trial = matrixResults({ properties: passed, rules: new Map(), calls: 30, plan: 'trial' });
  const feed = (results: MatrixResult[]) => results.find((r) => r.id === feedRow)!;
  expect(feed(trial)).toMatchObject({
    outcome: 'skipped',
    reason: 'needs a key of team or business or enterprise or payg',
  });
  const team = matrixResults({
    properties: new Map([...passed, ['changes', { status: 'passed' }]]),
    rules: new Map(),
    calls: 30,
    plan: 'team',
  });
  expect(feed(mergeMatrix([trial, team], ['trial', 'team'])).outcome).toBe('held');
  expect(feed(mergeMatrix([trial], ['trial'])).reason).toMatch(/^needs a key of/);
  // A rule broken under one key leaves the row resting on it whatever the other key saw.
  const peopleRow = matrix.find((r) => r.checks?.join() === 'rule:no-people')!.id;
  const broken = matrixResults({ properties: passed, rules: new Map([['no-people', 2]]), calls: 30, plan: 'team' });
  expect(mergeMatrix([trial, broken], ['trial', 'team']).find((r) => r.id === peopleRow)).toMatchObject({
    outcome: 'rests on a broken rule',
    broken_rules: ['no-people'],
  });
  // A property broken on its own under one key breaks its rows, whatever a rule did under the other.
  const feedBroken = matrixResults({
    properties: new Map([...passed, ['changes', { status: 'failed' }]]),
    rules: new Map([['no-people', 2]]),
    calls: 30,
    plan: 'team',
  });
  expect(feed(mergeMatrix([broken, feedBroken], ['team', 'business'])).outcome).toBe('broken');
  expect(matrixScore(mergeMatrix([trial, broken], ['trial', 'team'])).held).toBeLessThan(
    matrixScore(mergeMatrix([trial, team], ['trial', 'team'])).held,
  );
});

test('the score counts sentences: a "not shown" sentence of the spec points at its decisions, uncounted', () => {
  const results = matrixResults({ properties: new Map(), rules: new Map(), calls: 0, plan: 'team' });
  const score = matrixScore(results);
  expect(score.rows).toBe(matrix.filter((r) => !r.decided).length);
  expect(score.rows).toBeGreaterThan(250);
  expect(results.find((r) => r.id === matrix.find((m) => m.decided)!.id)!.outcome).toBe('decided elsewhere');
});

test('the rows a run did not reach are listed by why, so a user knows what to add', () => {
  const passed = new Map(
    ['conforms', 'envelope', 'auth', 'plan-features', 'filters', 'bad-input'].map((id) => [id, { status: 'passed' }]),
  );
  passed.set('rate', { status: 'skipped', reason: 'the burst above the rate was left out (--no-rate-burst)' } as never);
  const lines = unreachedLines(matrixResults({ properties: passed, rules: new Map(), calls: 30, plan: 'trial' }));
  expect(
    lines.some((l) => /^not reached: \d+ rows? \(.+\): needs a key of team or business or enterprise or payg$/.test(l)),
    lines.join('\n'),
  ).toBe(true);
  expect(lines.join('\n')).not.toMatch(/undefined/);
  const total = lines.reduce((sum, l) => sum + Number(/^not reached: (\d+)/.exec(l)![1]), 0);
  expect(total).toBe(
    matrixScore(matrixResults({ properties: passed, rules: new Map(), calls: 30, plan: 'trial' })).skipped,
  );
});

test('a row is checked on every case if its properties that ran all did, on some if one was cut; merged: max', () => {
  const feedRow = matrix.find((r) => r.checks?.length === 1 && r.checks[0] === 'changes')!.id;
  const run = (coverage: string) =>
    matrixResults({
      properties: new Map([['changes', { status: 'passed', coverage }]]),
      rules: new Map(),
      calls: 30,
      plan: 'team',
    });
  const [every, some] = [run('every case'), run('some cases')];
  const row = (results: MatrixResult[]) => results.find((r) => r.id === feedRow)!;
  expect([row(every).coverage, row(some).coverage]).toEqual(['every case', 'some cases']);
  expect(row(mergeMatrix([some, every], ['team', 'business'])).coverage).toBe('every case');
  expect(row(mergeMatrix([some], ['team'])).coverage).toBe('some cases');
  // A row only rules judge is judged on every call the run made.
  const peopleRow = matrix.find((r) => r.checks?.join() === 'rule:no-people')!.id;
  expect(some.find((r) => r.id === peopleRow)!.coverage).toBe('every case');
  const score = matrixScore(some);
  expect(score.every_case + score.some_cases).toBe(score.checked);
  expect(score.some_cases).toBeGreaterThan(0);
  expect(scoreLine(score)).toMatch(
    new RegExp(
      /^matrix rows: \d+ held, 0 broken, 0 resting on a broken rule: /.source +
        /\d+ checked \(\d+ on every case, \d+ on some cases\)/.source,
    ),
  );
  expect(
    matrixResults({ properties: new Map(), rules: new Map(), calls: 0, plan: 'team' }).find((r) => r.id === feedRow)!
      .coverage,
  ).toBe('not reached');
});

test("a rule's failure leaves the rows it covers unproven, not broken: one status for them, counted apart", () => {
  const ran = ['conforms', 'envelope', 'auth', 'bad-input', 'pagination'];
  const contractRow = matrix.find((r) => r.checks?.join() === 'conforms,rule:contract')!;
  const pagingRow = matrix.find((r) => r.checks?.join() === 'envelope')!;
  const run = (conforms: { status: string; rules?: string[] }, rules: [string, number][]) =>
    matrixResults({
      properties: new Map<string, { status: string; rules?: string[] }>([
        ...ran.map((id) => [id, { status: 'passed' }] as const),
        ['conforms', conforms],
      ]),
      rules: new Map(rules),
      calls: 30,
      plan: 'team',
    });
  // The contract rule broke (a header dropped, say): conforms was stopped by its findings alone.
  const dropped = run({ status: 'failed', rules: ['contract'] }, [['contract', 40]]);
  const row = (results: MatrixResult[], id: string) => results.find((r) => r.id === id)!;
  expect(row(dropped, contractRow.id)).toMatchObject({ outcome: 'rests on a broken rule', broken_rules: ['contract'] });
  // A row of a property that held is not touched by another rule's failure.
  expect(row(dropped, pagingRow.id).outcome).toBe('held');
  // A property stopped by a rule its row does not list leaves the row resting on that rule.
  const byRequestId = run({ status: 'failed', rules: ['request-id'] }, [['request-id', 9]]);
  expect(row(byRequestId, contractRow.id)).toMatchObject({
    outcome: 'rests on a broken rule',
    broken_rules: ['request-id'],
  });
  // The property broken by its own check breaks the row, the rule's failure beside it or not.
  expect(row(run({ status: 'failed' }, [['contract', 40]]), contractRow.id).outcome).toBe('broken');
  const score = matrixScore(dropped);
  expect(score.broken).toBe(0);
  // The score counts checked rows (shown to fail on their own sentence); the lines name every row resting.
  const resting = dropped.filter((r) => r.outcome === 'rests on a broken rule');
  expect(resting.length).toBeGreaterThan(100);
  expect(score.rests_on_broken_rule).toBe(resting.filter((r) => r.proof === 'own fault').length);
  expect(score.held + score.broken! + score.rests_on_broken_rule!).toBe(score.checked);
  expect(scoreLine(score)).toMatch(
    new RegExp(`^matrix rows: ${score.held} held, 0 broken, ${score.rests_on_broken_rule} resting on a broken rule: `),
  );
  // One line names the rule, the first sentence resting on it and how many more, and calls them unproven.
  expect(restingLines(dropped)).toEqual([
    `${resting.length} rows rest on broken rule contract (unproven, not broken): ` +
      `'${cut(matrix.find((r) => r.id === dropped.find((d) => d.broken_rules)!.id)!.rule)}' ` +
      `(${dropped.find((d) => d.broken_rules)!.id}) and ${resting.length - 1} more`,
  ]);
});

const cut = (said: string) => (said.length > 70 ? `${said.slice(0, 69)}…` : said);

test('a row is checked only when a fault its claim alone lists is caught, else covered by the model or not yet', () => {
  const everyCheck = new Set(matrix.flatMap((r) => r.checks ?? []).filter((c) => !c.startsWith('rule:')));
  const run = (model: boolean) =>
    matrixResults({
      properties: new Map([...everyCheck].map((id) => [id, { status: 'passed' }])),
      rules: new Map(),
      calls: 30,
      plan: 'enterprise',
      model,
    });
  const own = matrix.find((r) => r.proof === 'own fault')!;
  const byModel = matrix.find((r) => r.proof === 'model' && r.faults?.length)!;
  const unproven = matrix.find((r) => r.proof === 'none' && r.faults?.length)!;
  // Its faults are each listed by another claim too: they break another sentence as well.
  const listing = (fault: string) =>
    [...claims, ...spotClaims.map((c) => c.claim)].filter((c) => c.faults?.includes(fault)).length;
  expect(unproven.faults!.map(listing).every((n) => n > 1)).toBe(true);
  expect(own.faults!.map(listing)).toContain(1);
  const withModel = matrixScore(run(true));
  const without = matrixScore(run(false));
  expect(withModel.checked).toBe(matrix.filter((r) => r.proof === 'own fault').length);
  expect(withModel.covered_by_model).toBe(matrix.filter((r) => r.proof === 'model').length);
  // Without a model in the run, what only the model covers is not checked yet.
  expect(without.covered_by_model).toBe(0);
  expect(without.unproven).toBe(withModel.unproven! + withModel.covered_by_model!);
  expect(run(false).find((r) => r.id === byModel.id)?.proof).toBe('none');
  expect(run(true).find((r) => r.id === own.id)?.proof).toBe('own fault');
  expect(scoreLine(withModel)).toMatch(
    /shown to fail on a fault of their own \(no other sentence's\); \d+ more covered/,
  );
  expect(scoreLine(without)).toMatch(
    /not checked yet \(\d+ of them held by checks never shown to fail on their sentence/,
  );
});
