// @module-tag servers
/** The CLI as a CI job runs it: a real mock on loopback, a child process, JUnit and a report on disk. */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { canRun, freePort } from '@investor-graph/cli';
import { newKeyText } from '@investor-graph/mock';
import { startMock, type RunningMock } from '@investor-graph/mock/node';
import { formatReport } from '../report/report-text.ts';
import { matrix } from '../rule-matrix/rule-matrix.ts';

const cli = join(import.meta.dirname, 'cli.ts');
const key = newKeyText('team');
/**
 * For the runs whose plan is not what they test. The suite paces its calls at 90% of its key's plan
 * rate, so twenty calls wait four seconds on a Team key (5 a second) and under half a second on
 * an Enterprise one (50): this file ran its CLI for a minute longer on the Team key alone.
 */
const fast = newKeyText('enterprise');
let clean: RunningMock;
let broken: RunningMock;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ig-contract-cli-'));
  [clean, broken] = await Promise.all([
    startMock({
      port: 0,
      keys: [
        { plan: 'team', key },
        { plan: 'enterprise', key: fast },
      ],
    }),
    startMock({ port: 0, keys: [{ plan: 'team', key }], faults: ['leak-email'] }),
  ]);
});
afterAll(async () => {
  await Promise.all([clean?.close(), broken?.close()]);
  await rm(dir, { recursive: true, force: true });
});

function run(
  args: string[],
  env: Record<string, string> = {},
  onTerminal = false,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    // On a terminal: util-linux's `script` runs the CLI on a pseudo-terminal, outside CI.
    const { CI: _ci, ...notCi } = process.env;
    const command = [process.execPath, cli, ...args].map((a) => `'${a}'`).join(' ');
    const child = onTerminal
      ? spawn('script', ['-qec', command, '/dev/null'], {
          env: { ...notCi, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        })
      : spawn(process.execPath, [cli, ...args], {
          env: { ...process.env, CI: '1', ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 110_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** The matrix row of the sentence that says this. */
const rowSaying = (says: string): string => matrix.find((row) => row.rule.includes(says))!.id;

test('against a clean service it exits 0 and writes JUnit and a report within its budget', async () => {
  const junit = join(dir, 'clean.xml');
  const report = join(dir, 'clean.json');
  const { code, out } = await run(
    [
      '--base-url',
      clean.url,
      '--plan',
      'enterprise',
      '--only',
      'conforms,auth,bad-input',
      '--budget-calls',
      '60',
      '--seed',
      '5',
      '--runs',
      '8',
      '--junit',
      junit,
      '--report',
      report,
    ],
    { INVESTOR_GRAPH_KEY: fast },
  );
  expect(code, out).toBe(0);
  expect(out).not.toContain(fast);
  const xml = await readFile(junit, 'utf8');
  expect(xml).toContain('<testcase');
  expect(xml).toContain('conforms: every operation answers');
  expect(xml).not.toContain('<failure');
  // The matrix's score, checked apart from covered by the model, is in JUnit too.
  expect(xml).toMatch(/<property name="rule matrix" value="matrix rows: \d+ held, .* \d+ more covered by the model/);
  const json = JSON.parse(await readFile(report, 'utf8'));
  expect(json.seed).toBe(5);
  expect(json.spent.calls).toBeLessThanOrEqual(60);
  expect(json.properties.map((p: { id: string; status: string }) => `${p.id}:${p.status}`)).toEqual([
    'conforms:passed',
    'auth:passed',
    'bad-input:passed',
  ]);
  // The matrix: every row with its outcome; what these three properties and the rules check held.
  const outcome = (says: string) => json.matrix.find((r: { id: string }) => r.id === rowSaying(says)).outcome;
  expect(json.matrix.length).toBe(matrix.length);
  expect([
    outcome('People are excluded on every plan'),
    outcome('GET | `/api/v1/firms` |'),
    outcome('Data calls carry the header'),
  ]).toEqual(['held', 'held', 'held']);
  expect(outcome('Trial 2 requests a second')).toBe('skipped');
  expect(outcome('Use is for internal commercial purposes')).toBe('not checkable');
  expect(json.score.held).toBe(json.score.checked);
  expect(out).toMatch(
    new RegExp(
      `matrix rows: ${json.score.held} held, 0 broken, 0 resting on a broken rule: ${json.score.checked} checked`,
    ),
  );
  expect(JSON.stringify(json)).not.toContain(fast);
  // What it printed: the run's line, one line per property as it finished, and the summary; none of vitest's own.
  const lines = out.trimEnd().split('\n');
  // --budget-calls given, --budget-rows not: the plan's default rows.
  expect(lines[0]).toBe(`contract tests: enterprise key at ${clean.url}, seed 5, budget 60 calls and 50000 rows`);
  // The plan before any call: what each property will run and the most it can spend.
  expect(lines[1]).toMatch(
    new RegExp(
      /^ {2}plan {5}plan {14}3 properties, every boundary case \(\d+\) and /.source +
        /\d+ generated, at most \d+ calls and [\d,]+ rows of the budget of 59 /.source +
        /calls and 50,000 rows \(--budget-calls, the rest the enterprise plan's /.source +
        /default/.source,
    ),
  );
  expect(lines.slice(2, 5).map((l) => l.trim().split(/\s+/).slice(0, 2).join(' '))).toEqual([
    'held conforms',
    'held auth',
    'held bad-input',
  ]);
  expect(lines[2]).toMatch(
    /^ {2}held {5}conforms {10}checked on every case: \d+ boundary cases, \d+ generated, \d+ calls, \d+ rows$/,
  );
  expect(json.properties.map((p: { coverage: string }) => p.coverage)).toEqual([
    'every case',
    'every case',
    'every case',
  ]);
  expect(lines.slice(5)).toEqual(['', ...formatReport(json).split('\n'), `  JUnit: ${junit}  report: ${report}`]);
  expect(out).not.toMatch(/✓|RUN {2}v|Test Files|JUNIT report/);
}, 120_000);

test("--verbose adds vitest's own report, its tree of every test, to the same lines", async () => {
  const args = [
    '--base-url',
    clean.url,
    '--plan',
    'enterprise',
    '--only',
    'openapi',
    '--budget-calls',
    '20',
    '--runs',
    '1',
    '--junit',
    join(dir, 'verbose.xml'),
    '--report',
    join(dir, 'verbose.json'),
  ];
  const verbose = await run([...args, '--verbose'], { INVESTOR_GRAPH_KEY: fast });
  expect(verbose.code, verbose.out).toBe(0);
  const uncoloured = verbose.out.replace(/\x1b\[[0-9;]*m/g, '');
  expect(uncoloured).toMatch(/✓ .*> openapi: the served \/api\/v1\/openapi\.json describes every operation/);
  expect(uncoloured).toMatch(/↓ .*> admission: .*\[not selected with --only\]/);
  expect(uncoloured).toContain('Test Files');
  expect(uncoloured).toMatch(/^ {2}held {5}openapi /m);
  const plain = await run(args, { INVESTOR_GRAPH_KEY: fast });
  expect(plain.code, plain.out).toBe(0);
  expect(plain.out).not.toMatch(/✓|↓|Test Files/);
  expect(plain.out.split('\n').length).toBeLessThan(verbose.out.split('\n').length - 30);
}, 120_000);

test('against a service that leaks an e-mail it exits 1 and the JUnit names the rule', async () => {
  const junit = join(dir, 'broken.xml');
  const { code, out } = await run([
    '--base-url',
    broken.url,
    '--key',
    key,
    '--plan',
    'team',
    '--only',
    'conforms',
    '--budget-calls',
    '20',
    '--seed',
    '5',
    '--junit',
    junit,
    '--report',
    join(dir, 'broken.json'),
  ]);
  expect(code, out).toBe(1);
  const xml = await readFile(junit, 'utf8');
  expect(xml).toMatch(/rule no-people[^]*<failure/);
  // Suites and cases are named for what they test, never for the suite file inside the package.
  expect(xml).toMatch(/<testsuite name="contract tests: team key at http:\/\/127\.0\.0\.1:\d+"/);
  expect(xml).toMatch(/<testcase classname="contract tests: team key at [^"]*" name="conforms: /);
  expect(xml).not.toMatch(/cli-suite|\.contract\.(ts|js)/);
  // The replay is the whole command, pasted as it is where the run ran, the key from the environment.
  const pasted = /replay: npx --no -- investor-graph-contract-tests (.*)$/m.exec(out)?.[1];
  expect(pasted).toMatch(/^--base-url http:\/\/127\.0\.0\.1:\d+ --plan team --only conforms --seed 5/);
  expect(pasted).not.toContain(key);
  const again = await run(
    [...pasted!.split(' '), '--junit', join(dir, 'again.xml'), '--report', join(dir, 'again.json')],
    {
      INVESTOR_GRAPH_KEY: key,
    },
  );
  expect(again.code, again.out).toBe(1);
  expect(again.out).toMatch(/^ {2}broken {3}conforms .*: by rule no-people alone: /m);
  // The failure says what the rule expects and what the service did, on the property's line and in the summary.
  expect(out).toMatch(
    new RegExp(
      /^ {2}broken {3}conforms .*\[no-people\] GET /.source +
        /\/api\/v1\/[a-z-]+\?limit=\d+ -> 200: expected no e-mail, phone, /.source +
        /profile URL, photo or person field anywhere, got /.source +
        /body\.data\[0\]\.contact_email/.source,
      'm',
    ),
  );
  expect(out).toMatch(
    new RegExp(
      /^ {2}broken rule no-people: expected no e-mail, phone, profile URL, /.source +
        /photo or person field anywhere, got \d+ violations in \d+ calls, during setup, conforms/.source +
        /(, all of one kind|; \d+ kinds, a line each.*):$/.source,
      'm',
    ),
  );
  // The rule is counted once, with the property its findings alone broke, and that property has no entry of its own.
  expect(out).toMatch(/^ {2}rules \(each judges every call\): 1 broken \(no-people\), \d+ held$/m);
  expect(out).toMatch(/^ {2}properties: 0 broken, 1 stopped by a broken rule \(no-people\), /m);
  expect(out.match(/^ {2}broken rule no-people: /gm)).toHaveLength(1);
  expect(out).not.toMatch(/^ {2}broken conforms:/m);
  expect(out).toMatch(/^ {6}its findings alone broke conforms; the first replays with:\n {6}replay: npx /m);
  const json = JSON.parse(await readFile(join(dir, 'broken.json'), 'utf8'));
  // Its examples: each kind once, with how many calls showed it (the leak is in every page of firms).
  const [rule] = json.rules.filter((r: { violations: number }) => r.violations);
  expect(rule.id).toBe('no-people');
  const examples = rule.examples as { text: string; count: number }[];
  expect(new Set(examples.map((e) => e.text)).size).toBe(examples.length);
  expect(examples.some((e) => e.count > 1)).toBe(true);
  for (const e of examples.filter((x) => x.count > 1)) expect(out).toContain(`${e.text} (×${e.count}, during `);
  expect(json.properties[0].failure.rules).toEqual(['no-people']);
  // The rows its failure stands for rest on it, unproven: none is called broken.
  expect(
    json.matrix.find((r: { id: string }) => r.id === rowSaying('People are excluded on every plan')),
  ).toMatchObject({ outcome: 'rests on a broken rule', broken_rules: ['no-people'] });
  expect(json.matrix.find((r: { id: string }) => r.id === rowSaying('The service serves data about')).outcome).toBe(
    'rests on a broken rule',
  );
  expect(json.matrix.filter((r: { outcome: string }) => r.outcome === 'broken')).toEqual([]);
  expect(json.score).toMatchObject({ broken: 0, rests_on_broken_rule: expect.any(Number) });
  expect(json.score.held + json.score.rests_on_broken_rule).toBe(json.score.checked);
  expect(out).toMatch(/^ {2}\d+ rows rest on broken rule no-people \(unproven, not broken\): /m);
  expect(json.score.held).toBeLessThan(json.score.checked);
}, 120_000);

test("a broken property says what the rule expects and what the service did: the answer's status, body", async () => {
  const headless = await startMock({ port: 0, keys: [{ plan: 'team', key }], faults: ['refuse-head'] });
  try {
    const { code, out } = await run(
      [
        '--base-url',
        headless.url,
        '--plan',
        'team',
        '--only',
        'http-conventions',
        '--budget-calls',
        '20',
        '--seed',
        '5',
        '--runs',
        '1',
        '--junit',
        join(dir, 'head.xml'),
        '--report',
        join(dir, 'head.json'),
      ],
      { INVESTOR_GRAPH_KEY: key },
    );
    expect(code, out).toBe(1);
    const said = /HEAD (\/api\/v1\/\S+) \(the GET was 200\): expected 200, got 405 /;
    expect(out).toMatch(new RegExp(`^ {2}broken {3}http-conventions .*: ${said.source}`, 'm'));
    expect(out).toMatch(new RegExp(`^ {2}broken http-conventions: ${said.source}`, 'm'));
    // The case that broke it, as vitest printed it before the summary took its place (regression: left out).
    expect(out).toMatch(
      /^ {6}counterexample: .*\/api\/v1\/.*\n {6}replay: npx --no -- .* --only http-conventions --seed 5 --path \d+/m,
    );
  } finally {
    await headless.close();
  }
}, 120_000);

test('data answers that are not JSON: exit 1, a report naming what broke, never a crash (regression)', async () => {
  const plain = await startMock({ port: 0, keys: [{ plan: 'team', key }], faults: ['wrong-content-type'] });
  try {
    const junit = join(dir, 'plain.xml');
    const report = join(dir, 'plain.json');
    const { code, out } = await run(
      [
        '--base-url',
        plain.url,
        '--plan',
        'team',
        '--only',
        'conforms,auth',
        '--budget-calls',
        '20',
        '--seed',
        '5',
        '--junit',
        junit,
        '--report',
        report,
      ],
      { INVESTOR_GRAPH_KEY: key },
    );
    expect(code, out).toBe(1);
    expect(out).not.toMatch(/TypeError/);
    const json = JSON.parse(await readFile(report, 'utf8'));
    expect(json.setup_error).toMatch(
      new RegExp(
        /could not get ready: GET \/api\/v1\/firms\?limit=5: expected a 200 /.source +
          /JSON envelope of records \(data and as_of\), which every property /.source +
          /takes its samples from, got 200 \(text\/plain/.source,
      ),
    );
    expect(json.rules.find((r: { id: string }) => r.id === 'contract').violations).toBeGreaterThan(0);
    expect(out).toContain('broken setup:');
    expect(await readFile(junit, 'utf8')).toMatch(/conforms[^]*<failure[^]*could not get ready/);
  } finally {
    await plain.close();
  }
}, 120_000);

test('a key per plan checks what its plan allows, matrix merged; a rule no key reaches names its plan', async () => {
  const business = newKeyText('business');
  const mock = await startMock({
    port: 0,
    keys: [
      { plan: 'team', key },
      { plan: 'business', key: business },
    ],
  });
  try {
    const report = join(dir, 'two-keys.json');
    const { code, out } = await run(
      [
        '--base-url',
        mock.url,
        '--only',
        'conforms,plan-features,changes',
        '--budget-calls',
        '80',
        '--seed',
        '5',
        '--runs',
        '4',
        '--junit',
        join(dir, 'two-keys.xml'),
        '--report',
        report,
      ],
      { INVESTOR_GRAPH_KEYS: `team=${key},business=${business}` },
    );
    expect(code, out).toBe(0);
    expect(out).not.toContain(business);
    const json = JSON.parse(await readFile(report, 'utf8'));
    expect(json.plans).toEqual(['team', 'business']);
    expect(json.reports.map((r: { plan: string }) => r.plan)).toEqual(['team', 'business']);
    // Each key had its share of the budget: 80 calls less the two preflights, halved.
    for (const r of json.reports) expect(r.spent.calls).toBeLessThanOrEqual(39);
    const status = (plan: string, id: string) =>
      json.reports.find((r: { plan: string }) => r.plan === plan).properties.find((p: { id: string }) => p.id === id)
        .status;
    // plan-features runs on both: the team key is refused the dumps it lacks, the business key served them.
    expect([status('team', 'plan-features'), status('business', 'plan-features')]).toEqual(['passed', 'passed']);
    expect(
      json.matrix.find((r: { id: string }) => r.id === rowSaying('The `/exports` endpoints are restricted')).outcome,
    ).toBe('held');
    expect(json.score.held).toBe(json.score.checked);
    expect(out).toMatch(
      /all keys \(team, business\): matrix rows: \d+ held, 0 broken, 0 resting on a broken rule: \d+ checked/,
    );
    expect(JSON.stringify(json)).not.toContain(business);
  } finally {
    await mock.close();
  }
}, 120_000);

test('--use-control with no key makes a key of every plan through the mock and checks all in one run', async () => {
  const mock = await startMock({ port: 0 });
  try {
    const report = join(dir, 'every-plan.json');
    const { code, out } = await run([
      '--base-url',
      mock.url,
      '--use-control',
      '--only',
      'conforms,plan-features,changes',
      '--budget-calls',
      '150',
      '--seed',
      '5',
      '--runs',
      '3',
      '--junit',
      join(dir, 'every-plan.xml'),
      '--report',
      report,
    ]);
    expect(code, out).toBe(0);
    expect(out).toContain('made a key of each plan (trial, team, business, enterprise, payg)');
    const json = JSON.parse(await readFile(report, 'utf8'));
    expect(json.plans).toEqual(['trial', 'team', 'business', 'enterprise', 'payg']);
    // The changes feed: refused to the trial key (plan-features), walked with the others (changes).
    const status = (plan: string, id: string) =>
      json.reports.find((r: { plan: string }) => r.plan === plan).properties.find((p: { id: string }) => p.id === id)
        .status;
    expect([status('trial', 'plan-features'), status('trial', 'changes'), status('team', 'changes')]).toEqual([
      'passed',
      'skipped',
      'passed',
    ]);
    expect(json.missing).toEqual([]);
    expect(json.score.held).toBe(json.score.checked);
  } finally {
    await mock.close();
  }
}, 120_000);

test("a default run bursts past the plan's rate to test the limiter; --no-rate-burst skips it, saying so", async () => {
  const mock = await startMock({ port: 0, keys: [{ plan: 'team', key }] });
  try {
    const status = async (extra: string[]) => {
      const report = join(dir, `rate${extra.length}.json`);
      const { code, out } = await run(
        [
          '--base-url',
          mock.url,
          '--plan',
          'team',
          '--only',
          'rate',
          '--budget-calls',
          '40',
          '--seed',
          '5',
          '--runs',
          '1',
          '--junit',
          join(dir, `rate${extra.length}.xml`),
          '--report',
          report,
          ...extra,
        ],
        { INVESTOR_GRAPH_KEY: key },
      );
      expect(code, out).toBe(0);
      return JSON.parse(await readFile(report, 'utf8')).properties.find((p: { id: string }) => p.id === 'rate');
    };
    expect((await status([])).status).toBe('passed');
    expect(await status(['--no-rate-burst'])).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('--no-rate-burst'),
    });
  } finally {
    await mock.close();
  }
}, 120_000);

test('bad usage exits 2 and says what is wrong', async () => {
  const cases: [string[], RegExp][] = [
    [['--plan', 'team', '--key', key], /--base-url is required/],
    [['--base-url', 'ftp://x', '--plan', 'team', '--key', key], /must be http or https/],
    [['--base-url', clean.url, '--plan', 'gold', '--key', key], /--plan must be one of/],
    [['--base-url', clean.url, '--plan', 'team', '--email', 'a@example.com'], /--email gets a trial key/],
    [['--base-url', clean.url, '--plan', 'team', '--key', key, '--only', 'nope'], /no property nope/],
    [
      ['--base-url', clean.url, '--plan', 'team', '--key', key, '--budget-calls', '1.5'],
      /--budget-calls must be a whole number/,
    ],
    [['--base-url', clean.url, '--key', `team=${key}`, '--key', `team=${key}`], /--key team= is given twice/],
    [['--base-url', clean.url, '--plan', 'team', '--key', `team=${key}`], /--plan goes with a plain --key/],
    [['--base-url', clean.url, '--key', `team=${key}`, '--key', key], /give every --key as PLAN=KEY/],
    [
      ['--base-url', clean.url, '--key', `team=${key}`, '--key', `business=${key}`, '--budget-calls', '3'],
      /--budget-calls must be at least 4 for 2 keys/,
    ],
    [['--base-url', clean.url, '--key', `tema=${key}`], /--key tema=\.\.\.: tema is no plan/],
    [['--base-url', clean.url, '--key', key, '--use-control'], /--plan must be one of/],
  ];
  for (const [args, message] of cases) {
    const { code, out } = await run(args);
    expect(code, out).toBe(2);
    expect(out).toMatch(message);
    // One line, not the fifty of the usage under it.
    expect(out.trim().split('\n'), out).toHaveLength(1);
    expect(out.trim()).toMatch(/^\[investor-graph-contract-tests\] .* \(see investor-graph-contract-tests --help\)$/);
  }
}, 60_000);

test('a misspelt flag is exactly one line naming the flag meant, pointing at --help, and exit 2', async () => {
  const { code, out } = await run(['--base-url', clean.url, '--plan', 'team', '--bugdet', '50'], {
    INVESTOR_GRAPH_KEY: key,
  });
  expect(code).toBe(2);
  expect(out).toBe(
    "[investor-graph-contract-tests] Unknown option '--bugdet'. Did you mean --budget-calls? " +
      '(see investor-graph-contract-tests --help)\n',
  );
});

test('a report it cannot write is one line and exit 2, before any call', async () => {
  const { code, out } = await run(['--base-url', clean.url, '--plan', 'team', '--report', join(cli, 'report.json')], {
    INVESTOR_GRAPH_KEY: key,
  });
  expect(code).toBe(2);
  expect(out).toBe(
    `[investor-graph-contract-tests] --report ${join(cli, 'report.json')}: cannot be written ` +
      `(${cli} is a file, not a folder) (see investor-graph-contract-tests --help)\n`,
  );
});

test('a --junit or --report path that is a folder: one line, exit 2, before a call (regression: EISDIR)', async () => {
  for (const flag of ['--junit', '--report']) {
    const { code, out } = await run(
      [
        '--base-url',
        clean.url,
        '--plan',
        'team',
        '--only',
        'auth',
        '--budget-calls',
        '20',
        '--junit',
        join(dir, 'folder.xml'),
        '--report',
        join(dir, 'folder.json'),
        flag,
        dir,
      ],
      { INVESTOR_GRAPH_KEY: key },
    );
    expect(code, out).toBe(2);
    expect(out).toBe(
      `[investor-graph-contract-tests] ${flag} ${dir}: is a folder, not a file (see ` +
        `investor-graph-contract-tests --help)\n`,
    );
  }
}, 60_000);

test('a key with whitespace in it is refused unshown: INVESTOR_GRAPH_KEY, --key, INVESTOR_GRAPH_KEYS', async () => {
  const pasted = `${key}\nigk_team_second_line`;
  const cases: [string[], Record<string, string>, RegExp][] = [
    [
      ['--plan', 'team'],
      { INVESTOR_GRAPH_KEY: pasted },
      /^INVESTOR_GRAPH_KEY: the team key holds a character no key has/,
    ],
    [['--plan', 'team', '--key', `${key} x`], {}, /^--key: the team key holds/],
    [['--key', `team=${pasted}`], {}, /^--key: the team key holds/],
    [
      [],
      { INVESTOR_GRAPH_KEYS: `business=${newKeyText('business')},team=${pasted}` },
      /^INVESTOR_GRAPH_KEYS: the team key holds/,
    ],
  ];
  for (const [args, env, message] of cases) {
    const { code, out } = await run(
      ['--base-url', clean.url, ...args, '--junit', join(dir, 'nl.xml'), '--report', join(dir, 'nl.json')],
      env,
    );
    expect(code, out).toBe(2);
    expect(out.replace(/^.*?\] /, '')).toMatch(message);
    expect(out.trim().split('\n'), out).toHaveLength(1);
    expect(out).not.toContain(key.slice(9));
  }
}, 60_000);

test('a key left as a stray argument is said to be there, unshown (regression: it was printed)', async () => {
  const { code, out } = await run(['--base-url', clean.url, '--plan', 'team', key]);
  expect(code, out).toBe(2);
  expect(out).toBe(
    `[investor-graph-contract-tests] unexpected argument of ${key.length} characters (not ` +
      `shown: it may be a key) (see investor-graph-contract-tests --help)\n`,
  );
});

test('a suite failing to load is a line of what and where, exit 3, without --verbose (regression)', async () => {
  const suite = join(dir, 'broken-suite.contract.ts');
  await writeFile(suite, "import { test } from 'vitest';\ntest('x', () => {\n  const = 1;\n});\n");
  const { code, out } = await run(
    [
      '--base-url',
      clean.url,
      '--plan',
      'team',
      '--budget-calls',
      '20',
      '--junit',
      join(dir, 'load.xml'),
      '--report',
      join(dir, 'load.json'),
    ],
    { INVESTOR_GRAPH_KEY: key, INVESTOR_GRAPH_CONTRACT_TESTS_SUITE: suite },
  );
  expect(code, out).toBe(3);
  expect(out.trim().split('\n'), out).toHaveLength(1);
  // What failed, and the next line of the error: the file and the place in it.
  expect(out).toMatch(
    new RegExp(
      /^\[investor-graph-contract-tests\] the run could not start: could not /.source +
        /load the suite: .*broken-suite\.contract\.ts:3/.source,
    ),
  );
}, 60_000);

test('a suite file that is missing is said to be missing, one line and exit 3', async () => {
  const suite = join(dir, 'cli-suite.contract.ts');
  const { code, out } = await run(
    [
      '--base-url',
      clean.url,
      '--plan',
      'team',
      '--budget-calls',
      '20',
      '--junit',
      join(dir, 'gone.xml'),
      '--report',
      join(dir, 'gone.json'),
    ],
    { INVESTOR_GRAPH_KEY: key, INVESTOR_GRAPH_CONTRACT_TESTS_SUITE: suite },
  );
  expect(code, out).toBe(3);
  expect(out).toBe(
    `[investor-graph-contract-tests] the run could not start: the suite file ${suite} is ` +
      `missing (a broken install? reinstall @investor-graph/contract-tests)\n`,
  );
}, 60_000);

test('what the set-up gets wrong is one line and exit 3, apart from broken rules (1) and bad usage (2)', async () => {
  const nothing = `http://127.0.0.1:${await freePort()}`;
  // A pay-as-you-go key as the control API makes it by default: no prepaid rows.
  const unfunded = (
    (await fetch(`${clean.url}/__control/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plan: 'payg' }),
    }).then((r) => r.json())) as { key: string }
  ).key;
  const cases: [string[], Record<string, string>, RegExp][] = [
    [
      ['--base-url', nothing, '--plan', 'team'],
      { INVESTOR_GRAPH_KEY: key },
      /cannot connect to http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\): is the service up/,
    ],
    [
      ['--base-url', clean.url, '--plan', 'team'],
      { INVESTOR_GRAPH_KEY: newKeyText('team') },
      /the service refused the key \(401 [a-z_]+\): check INVESTOR_GRAPH_KEY/,
    ],
    [
      ['--base-url', clean.url, '--plan', 'business'],
      { INVESTOR_GRAPH_KEY: key },
      /the key is a team key, but --plan says business: give --plan team/,
    ],
    [
      ['--base-url', clean.url, '--plan', 'payg'],
      { INVESTOR_GRAPH_KEY: unfunded },
      /the pay-as-you-go key has 0 prepaid rows left, fewer than the \d+ a call costs: .*buy_prepaid_rows/,
    ],
  ];
  for (const [args, env, message] of cases) {
    const { code, out } = await run([...args, '--junit', join(dir, 'env.xml'), '--report', join(dir, 'env.json')], env);
    expect(code, out).toBe(3);
    expect(out).toMatch(message);
    expect(out.trim().split('\n'), out).toHaveLength(1);
    expect(out).not.toContain(env.INVESTOR_GRAPH_KEY!);
  }
}, 60_000);

test('a key given on the command line works, with a warning that says where it shows', async () => {
  const { code, out } = await run([
    '--base-url',
    clean.url,
    '--plan',
    'enterprise',
    '--key',
    fast,
    '--only',
    'auth',
    '--budget-calls',
    '20',
    '--runs',
    '1',
    '--junit',
    join(dir, 'argv.xml'),
    '--report',
    join(dir, 'argv.json'),
  ]);
  expect(code, out).toBe(0);
  expect(out).toContain(
    'warning: a key on the command line shows in ps, shell history and CI logs; pass it in INVESTOR_GRAPH_KEY',
  );
}, 60_000);

test("a developer's running mock keeps its clock unless --use-control drives it, as the run says first", async () => {
  const clockOf = async () =>
    ((await (await fetch(`${clean.url}/__control/state`)).json()) as { clock: { now: string } }).clock.now;
  const args = [
    '--base-url',
    clean.url,
    '--plan',
    'enterprise',
    '--only',
    'stability',
    '--seed',
    '11',
    '--runs',
    '12',
    '--budget-calls',
    '40',
    '--junit',
    join(dir, 'clock.xml'),
    '--report',
    join(dir, 'clock.json'),
  ];
  const before = Date.parse(await clockOf());
  const hands = await run(args, { INVESTOR_GRAPH_KEY: fast });
  expect(hands.code, hands.out).toBe(0);
  expect(hands.out).not.toContain('--use-control');
  // The mock's clock runs with real time; an hour of rebuilds would show as an hour.
  expect(Date.parse(await clockOf()) - before).toBeLessThan(30 * 60_000);

  const driven = await run([...args, '--use-control'], { INVESTOR_GRAPH_KEY: fast });
  expect(driven.code, driven.out).toBe(0);
  expect(driven.out).toMatch(
    new RegExp(
      /--use-control: this run drives the mock's control API at /.source +
        /http:\/\/127\.0\.0\.1:\d+; its simulated clock \(now [0-9T:.Z-]+\) /.source +
        /will move forward and cannot be moved back/.source,
    ),
  );
  expect(Date.parse(await clockOf()) - before).toBeGreaterThanOrEqual(60 * 60_000);
}, 120_000);

// util-linux's `script` gives the CLI a terminal.
test.skipIf(!canRun('script', ['--version']))(
  "on a terminal vitest's live progress (tests done of all) comes with --verbose; without it, as in CI, only the lines",
  async () => {
    const args = [
      '--base-url',
      clean.url,
      '--plan',
      'enterprise',
      '--only',
      'conforms',
      '--budget-calls',
      '20',
      '--runs',
      '3',
      '--junit',
      join(dir, 'tty.xml'),
      '--report',
      join(dir, 'tty.json'),
    ];
    const held = new RegExp(
      /^ {2}held {5}conforms {10}checked on (every|some) cases?: \d+ /.source +
        /(of \d+ )?boundary cases?, \d+ generated, \d+ calls, \d+ rows/.source,
      'm',
    );
    const verbose = await run([...args, '--verbose'], { INVESTOR_GRAPH_KEY: fast }, true);
    expect(verbose.code, verbose.out).toBe(0);
    // vitest's live summary: redrawn in place, with the count of tests done so far.
    expect(verbose.out).toContain('\x1b[?2026h');
    expect(verbose.out).toMatch(/\d+\/\d+/);
    expect(verbose.out).toMatch(held);
    for (const plain of [
      await run(args, { INVESTOR_GRAPH_KEY: fast }, true),
      await run(args, { INVESTOR_GRAPH_KEY: fast }),
    ]) {
      expect(plain.code, plain.out).toBe(0);
      expect(plain.out).not.toContain('\x1b[?2026h');
      // One line per property as it finishes, with what it spent, on a terminal as in CI.
      expect(plain.out).toMatch(held);
    }
  },
);
