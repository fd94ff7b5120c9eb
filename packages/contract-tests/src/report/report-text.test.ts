import { expect, test } from 'vitest';
import { groupFindings, type Finding, type RuleResult } from '../core/rule-results.ts';
import type { PropertyResult } from '../core/run.ts';
import { matrixResults, matrixScore } from '../rule-matrix/matrix-results.ts';
import { renderHtmlReport } from './html-report.ts';
import type { Report } from './report.ts';
import { exampleLine, formatReport, ruleFailureText } from './report-text.ts';

/** A call that broke the request-id rule, as the ledger keeps it: each carries its own X-Request-Id. */
const finding = (n: number, path: string, check: string, status = 200): Finding => ({
  rule: 'request-id',
  check,
  call: `GET ${path} -> ${status}`,
  message: `the request sent X-Request-Id igct-${n}; the answer's is null`,
  exchange: {
    method: 'GET',
    path,
    key: 'run',
    request_headers: { 'x-request-id': `igct-${n}` },
    status,
    headers: {},
    body: '',
  },
});

const findings = [
  finding(1, '/api/v1/firms?limit=5', 'setup'),
  finding(2, '/api/v1/firms?limit=1', 'conforms'),
  finding(3, '/api/v1/firms?limit=2', 'conforms'),
  finding(4, '/api/v1/firms?limit=1', 'pagination'),
  finding(5, '/api/v1/firms?limit=1', 'rate'),
  finding(6, '/api/v1/firms?limit=1', 'rate', 429),
  finding(7, '/api/v1/companies/arbor-genomics', 'stability'),
  finding(8, '/api/v1/companies/emberix-security', 'derived'),
];

test("findings of one rule, operation, status and message are one kind, whatever each call's id and query", () => {
  const groups = groupFindings(findings);
  expect(groups.map((g) => [g.first.call, g.count, g.during])).toEqual([
    ['GET /api/v1/firms?limit=5 -> 200', 5, ['setup', 'conforms', 'pagination', 'rate']],
    ['GET /api/v1/firms?limit=1 -> 429', 1, ['rate']],
    // Two slugs, one operation (its path template).
    ['GET /api/v1/companies/arbor-genomics -> 200', 2, ['stability', 'derived']],
  ]);
  // Another message is another kind.
  const other = { ...finding(9, '/api/v1/firms?limit=1', 'conforms'), message: "the answer's is igct-1" };
  expect(groupFindings([...findings, other])).toHaveLength(4);
});

/** A failing run's report: the request-id rule broke in three properties; http-conventions broke on its own. */
function setup(): Report {
  const groups = groupFindings(findings);
  const rule: RuleResult = {
    id: 'request-id',
    title: 'an answer echoes the X-Request-Id its caller made for it',
    basis: 'assumed',
    spec: null,
    assumed: ['http-conventions'],
    violations: findings.length,
    during: ['setup', 'conforms', 'pagination', 'rate', 'stability', 'derived'],
    examples: groups.map((g) => ({ text: `${g.first.call}: ${g.first.message}`, count: g.count, during: g.during })),
    kinds: groups.length,
  };
  const held: RuleResult = { ...rule, id: 'no-people', violations: 0, during: [], examples: [], kinds: 0 };
  const property = (id: string, rules?: ['request-id']): PropertyResult => ({
    id,
    title: id,
    status: 'failed',
    basis: 'assumed',
    spec: [],
    assumed: [],
    runs: 1,
    plannedRuns: 3,
    cases: { boundary: 1, boundaryTotal: 2, generated: 0, generatedWanted: 1 },
    coverage: 'some cases',
    spent: { calls: 2, rows: 2 },
    seed: 3,
    failure: {
      message: rules
        ? `[request-id] GET /api/v1/firms?limit=1 -> 200: expected x, got y (×2)`
        : `${id}: expected a, got b`,
      counterexample: '[0]',
      path: '0',
      replay: `--only ${id} --seed 3 --path 0`,
      rerun: `npx --no -- investor-graph-contract-tests --only ${id} --seed 3 --path 0`,
      ...(rules ? { rules } : {}),
    },
  });
  const properties = [
    property('conforms', ['request-id']),
    property('pagination', ['request-id']),
    property('rate', ['request-id']),
    property('http-conventions'),
  ];
  const matrix = matrixResults({
    properties: new Map(properties.map((p) => [p.id, { status: p.status, ...p.failure }])),
    rules: new Map([['request-id', findings.length]]),
    calls: 40,
    plan: 'team',
  });
  return {
    base_url: 'http://127.0.0.1:4010',
    plan: 'team',
    seed: 3,
    budget: { calls: 100, rows: 1000 },
    spent: { calls: 40, rows: 40 },
    spent_by_check: {},
    calls_checked: 40,
    operations: {},
    calls_without_operation: 0,
    properties,
    rules: [rule, held],
    matrix,
    score: matrixScore(matrix),
    summary: {
      documented: { passed: 0, failed: 0, stopped_by_rule: 0 },
      assumed: { passed: 1, failed: 2, stopped_by_rule: 3 },
      skipped: 0,
    },
  };
}

test('a rule broken in several properties is one broken rule, with those properties and its kinds counted', () => {
  const report = setup();
  const text = formatReport(report);
  expect(text).toContain('\n  rules (each judges every call): 1 broken (request-id), 1 held\n');
  expect(text).toContain(
    '\n  properties: 1 broken (http-conventions), 3 stopped by a broken rule (request-id), 0 held, 0 not reached\n',
  );
  // Said once, under the rule: no entry of their own for the properties its findings alone broke.
  expect(text.match(/^ {2}broken rule request-id: /gm)).toHaveLength(1);
  expect(text).not.toMatch(/^ {2}broken (conforms|pagination|rate):/m);
  expect(text).toMatch(/^ {2}broken http-conventions: http-conventions: expected a, got b$/m);
  expect(text).toContain(
    '\n      its findings alone broke conforms, pagination, rate; the first replays with:\n' +
      '      replay: npx --no -- investor-graph-contract-tests --only conforms --seed 3 --path 0\n',
  );
  // Each kind once, with its count, never the same line again.
  expect(text).toContain(
    "\n      GET /api/v1/firms?limit=5 -> 200: the request sent X-Request-Id igct-1; the answer's is null " +
      '(×5, during setup, conforms, pagination, rate)\n',
  );
  expect(text.match(/X-Request-Id igct-/g)).toHaveLength(3);
  expect(text).toContain(
    'got 8 violations in 40 calls, during setup, conforms, pagination, rate, stability and 1 more',
  );
  expect(text).toContain('; 3 kinds, a line each:');
  // The rows its failure stands for are named as resting on it, and counted apart from broken ones.
  expect(text).toMatch(/^ {2}matrix rows: \d+ held, \d+ broken, \d+ resting on a broken rule: /m);
  expect(text).toMatch(
    /^ {2}\d+ rows rest on broken rule request-id \(unproven, not broken\): '.+' \(.+\) and \d+ more$/m,
  );
  expect(report.matrix.filter((r) => r.outcome === 'rests on a broken rule').length).toBeGreaterThan(100);
  expect(text).toContain(
    '\n  properties and rules by basis: documented (the spec) 0 held, 0 broken; ' +
      'assumed (x-assumed) 1 held, 2 broken, 3 stopped by a broken rule; 0 not reached',
  );
});

test('a kind met once says where; a report from before grouping shows its examples as they are', () => {
  expect(exampleLine({ text: 'GET /x -> 200: y', count: 1, during: ['auth'] })).toBe('GET /x -> 200: y (during auth)');
  expect(exampleLine('GET /x -> 200 (during auth): y')).toBe('GET /x -> 200 (during auth): y');
  const rule = setup().rules[0]!;
  // As such a report is read from disk: its examples are strings.
  const old = {
    ...rule,
    examples: ['GET /x -> 200 (during auth): y'] as unknown as RuleResult['examples'],
    kinds: undefined,
    during: undefined,
  };
  expect(ruleFailureText(old, 40)).toMatch(
    /got 8 violations in 40 calls, for example:\nGET \/x -> 200 \(during auth\): y$/,
  );
});

test('the HTML page says the same: the rule once with its kinds counted, the rows resting on it apart', () => {
  const page = renderHtmlReport(setup());
  expect(page).toContain('FAILED: 1 property broke, 1 rule broke (3 properties stopped by it)');
  // No failure of their own for the properties the rule's findings alone broke; they are named under it.
  expect(page).toContain('<div class="failure" id="property-http-conventions">');
  expect(page).not.toContain('<div class="failure" id="property-conforms">');
  const rule = /<div class="failure" id="rule-request-id">[^]*?<\/div>\n?(?=<div class="failure"|<\/section>)/.exec(
    page,
  )![0];
  expect(rule.match(/X-Request-Id igct-/g)).toHaveLength(3);
  expect(rule).toContain('(×5, during setup, conforms, pagination, rate)');
  expect(rule).toMatch(/Its findings alone broke 3 properties <code>conforms<\/code>, <code>pagination<\/code>/);
  expect(rule).toContain('--only conforms --seed 3 --path 0</pre>');
  expect(page).toMatch(
    /<tr data-state="rests-on-a-broken-rule">[^]*?unproven, not broken: rule <code>request-id<\/code>/,
  );
  expect(page).toMatch(/<label [^>]*><span class="badge rests-on-a-broken-rule">rests on a broken rule \d+<\/span>/);
});
