// @module-tag servers
/**
 * `investor-graph-contract-tests diff` and the run that starts with it, as CI runs them: the CLI as a
 * child process, real mocks on loopback serving their contract, real oasdiff, files on disk.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { newKeyText } from '@investor-graph/mock';
import { startMock, type RunningMock } from '@investor-graph/mock/node';
import { oasdiff } from '../diff/diff-oasdiff.test-support.ts';

const cli = join(import.meta.dirname, '../cli/cli.ts');
/**
 * An Enterprise key: what these runs test is the diff, not a plan, and the suite paces its calls at
 * 90% of the key's plan rate, so a run of 60 calls waits 13 s on a Team key and about 1.3 s on this.
 */
const key = newKeyText('enterprise');
let clean: RunningMock;
/** Serves a contract without the offerings list: an operation removed, which breaks clients. */
let stale: RunningMock;
interface Front {
  url: string;
  server: Server;
}
/**
 * The clean mock behind a front whose contract's address answers a 503 page: the API works, its
 * contract cannot be had.
 */
let noContract: Front;
/**
 * The clean mock behind a front serving its contract with the Firm schema a $ref to another file,
 * which the diff refuses to follow.
 */
let externalRef: Front;
/**
 * The clean mock behind a front serving its contract with Firm's website taken out: a change that
 * breaks clients, which no property sees.
 */
let noWebsite: Front;
let dir: string;

/**
 * A front on loopback passing every call to `upstream` but the contract's, which `contract` answers
 * from the upstream's (its servers moved to the front, as a service's own would list it).
 */
async function front(
  upstream: string,
  contract: (document: any) => { status: number; type: string; body: string },
): Promise<Front> {
  let origin = '';
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The relay's failure is the test's: an unhandled rejection, as from an async listener.
    const relay = async (): Promise<void> => {
      const headers = Object.entries(request.headers).filter(
        ([name]) => !['host', 'connection', 'content-length'].includes(name),
      ) as [string, string][];
      const answer = await fetch(`${upstream}${request.url}`, {
        method: request.method!,
        headers,
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
      });
      if (request.url === '/api/v1/openapi.json') {
        const given = contract(JSON.parse((await answer.text()).split(upstream).join(origin)));
        return void response.writeHead(given.status, { 'content-type': given.type }).end(given.body);
      }
      // fetch has undone any compression and framing: those headers no longer hold, but a HEAD's
      // Content-Length, which says the GET's size (the http-conventions property compares them).
      const kept = [...answer.headers].filter(
        ([name]) =>
          !['content-encoding', 'transfer-encoding', 'connection'].includes(name) &&
          (name !== 'content-length' || request.method === 'HEAD'),
      );
      response.writeHead(answer.status, Object.fromEntries(kept)).end(Buffer.from(await answer.arrayBuffer()));
    };
    request.on('end', () => void relay());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url: origin, server };
}
// A contract changed is a new version of it (DECISIONS.md#deprecation): the model leaves it to the diff.
const served = (document: { info: { version: string } }) => ({
  status: 200,
  type: 'application/json',
  body: JSON.stringify({ ...document, info: { ...document.info, version: `${document.info.version}-changed` } }),
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ig-diff-cli-'));
  [clean, stale] = await Promise.all([
    startMock({ port: 0, keys: [{ plan: 'enterprise', key }] }),
    startMock({ port: 0, keys: [{ plan: 'enterprise', key }], faults: ['stale-openapi'] }),
  ]);
  noContract = await front(clean.url, () => ({
    status: 503,
    type: 'text/html',
    body: '<html>down for maintenance</html>',
  }));
  externalRef = await front(clean.url, (document) =>
    served({
      ...document,
      components: {
        ...document.components,
        schemas: { ...document.components.schemas, Firm: { $ref: 'schemas.json#/Firm' } },
      },
    }),
  );
  noWebsite = await front(clean.url, (document) => {
    const firm = document.components.schemas.Firm;
    delete firm.properties.website;
    firm.required = firm.required.filter((name: string) => name !== 'website');
    return served(document);
  });
});
afterAll(async () => {
  await Promise.all([
    clean?.close(),
    stale?.close(),
    ...[noContract, externalRef, noWebsite].map(
      (f) => new Promise((resolve) => (f ? f.server.close(resolve) : resolve(null))),
    ),
  ]);
  await rm(dir, { recursive: true, force: true });
});

/** A short run of the whole suite (the diff is left out of a run with --only), its reports in `name`.xml and .json. */
const runArgs = (url: string, name: string) => [
  '--base-url',
  url,
  '--plan',
  'enterprise',
  '--budget-calls',
  '60',
  '--runs',
  '1',
  '--seed',
  '5',
  '--no-rate-burst',
  '--junit',
  join(dir, `${name}.xml`),
  '--report',
  join(dir, `${name}.json`),
];

/** The CLI with `args`, oasdiff as the tests have it unless `env` says otherwise. */
function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, CI: '1', ...(oasdiff.bin ? { OASDIFF_BIN: oasdiff.bin } : {}), ...env },
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
const json = async (file: string) => JSON.parse(await readFile(file, 'utf8'));

describe.skipIf(!oasdiff.bin)(`with oasdiff${oasdiff.skip ? ` (skipped: ${oasdiff.skip})` : ''}`, () => {
  test("diff against a mock serving the kit's contract: exit 0, no change, a JUnit case that passed", async () => {
    const junit = join(dir, 'clean.xml');
    const report = join(dir, 'clean.json');
    const { code, out } = await run(['diff', '--base-url', clean.url, '--junit', junit, '--report', report]);
    expect(code, out).toBe(0);
    expect(out).toBe(
      `contract diff: ${clean.url}/api/v1/openapi.json against the kit's contract (oasdiff)\n  ` +
        `held: no change that breaks clients, and no other change\n`,
    );
    expect(await json(report)).toEqual({ status: 'passed', against: 'kit', breaking: [], non_breaking: [] });
    const xml = await readFile(junit, 'utf8');
    expect(xml).toContain(
      `<testcase classname="contract diff" name="the served contract has no change that breaks ` +
        `clients from the kit's contract"`,
    );
    expect(xml).not.toContain('<failure');
  });

  test('diff against a mock that dropped an operation: exit 1, the change on its line, the JUnit failed', async () => {
    const junit = join(dir, 'stale.xml');
    const report = join(dir, 'stale.json');
    const { code, out } = await run(['diff', '--base-url', stale.url, '--junit', junit, '--report', report]);
    expect(code, out).toBe(1);
    expect(out.split('\n')).toEqual(
      expect.arrayContaining([
        '  breaking (1):',
        '    GET /api/v1/offerings: api path removed without deprecation [api-path-removed-without-deprecation]',
        '  FAILED: 1 change that breaks clients',
      ]),
    );
    expect((await json(report)).breaking).toEqual([
      {
        id: 'api-path-removed-without-deprecation',
        operation: 'GET /api/v1/offerings',
        text: 'api path removed without deprecation',
      },
    ]);
    expect(await readFile(junit, 'utf8')).toMatch(
      new RegExp(
        /<failure message="1 change that breaks clients" /.source +
          /type="BreakingChange">GET \/api\/v1\/offerings: api path removed/.source,
      ),
    );
  });

  test('the run starts with the diff: a change that breaks clients fails it, in summary, JUnit, report', async () => {
    const junit = join(dir, 'run.xml');
    const report = join(dir, 'run.json');
    const args = runArgs(noWebsite.url, 'run');
    const { code, out } = await run(args, { INVESTOR_GRAPH_KEY: key });
    expect(code, out).toBe(1);
    // The properties held: the diff alone failed the run.
    expect(out).toMatch(/^ {2}held {5}openapi /m);
    expect(out).not.toMatch(/^ {2}broken (?!diff)/m);
    expect(out).toContain(
      "  broken diff: expected no change that breaks clients from the kit's contract, got " +
        '3:\n      GET /api/v1/changes: removed the required property ' +
        '`data/items/row/oneOf[#/components/schemas/Firm]/website` from the response with the ' +
        '`200` status [response-required-property-removed]\n      GET /api/v1/firms: removed the ' +
        'required property `data/items/website` from the response with the `200` status ' +
        '[response-required-property-removed]\n',
    );
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(/<testsuites [^>]*failures="1"/);
    expect(xml).toMatch(
      new RegExp(
        /<testsuite name="contract diff" tests="1" failures="1"[^]*<failure /.source +
          /[^>]*>GET \/api\/v1\/changes: removed[^<]*\nGET \/api\/v1\/firms: /.source +
          /removed/.source,
      ),
    );
    expect((await json(report)).diff).toMatchObject({
      status: 'failed',
      against: 'kit',
      breaking: Array(3).fill({
        id: 'response-required-property-removed',
        operation: expect.any(String),
        text: expect.stringContaining('website'),
      }),
    });
    expect(out).not.toContain(key);

    // --no-diff leaves it out: the same run holds, and its report has no diff.
    const skipped = await run([...args, '--no-diff'], { INVESTOR_GRAPH_KEY: key });
    expect(skipped.code, skipped.out).toBe(0);
    expect(skipped.out).not.toMatch(/(held|broken) diff|diff not run/);
    expect((await json(report)).diff).toBeUndefined();
  });

  test('a replay (--only [--seed --path]) leaves out the diff: it passes if the property it names holds', async () => {
    for (const replay of [
      ['--only', 'auth'],
      ['--only', 'auth', '--path', '0'],
    ]) {
      const { code, out } = await run([...runArgs(stale.url, 'replay'), ...replay], { INVESTOR_GRAPH_KEY: key });
      expect(code, out).toBe(0);
      expect(out).not.toMatch(/(held|broken) diff|diff not run/);
      expect((await json(join(dir, 'replay.json'))).diff).toBeUndefined();
      expect(await readFile(join(dir, 'replay.xml'), 'utf8')).not.toContain('contract diff');
    }
  });

  test('a contract address answering a 503 page: exit 1, nothing to compare, why in report and JUnit', async () => {
    const junit = join(dir, 'down.xml');
    const report = join(dir, 'down.json');
    const { code, out } = await run(['diff', '--base-url', noContract.url, '--junit', junit, '--report', report]);
    expect(code, out).toBe(1);
    const reason = `${noContract.url}/api/v1/openapi.json answered 503, not the contract`;
    expect(out).toBe(
      `contract diff: ${noContract.url}/api/v1/openapi.json against the kit's contract ` +
        `(oasdiff)\n  FAILED: no contract to compare: ${reason}\n`,
    );
    expect(await json(report)).toEqual({
      status: 'failed',
      against: 'kit',
      reason,
      breaking: [{ id: 'contract-unreadable', text: reason }],
      non_breaking: [],
    });
    expect(await readFile(junit, 'utf8')).toContain(
      `<failure message="no contract to compare" type="UnreadableContract">${reason}</failure>`,
    );
  });

  test('a served contract the diff cannot read (a $ref to a file): properties hold, the diff fails it', async () => {
    const { code, out } = await run(runArgs(externalRef.url, 'ref-run'), { INVESTOR_GRAPH_KEY: key });
    expect(code, out).toBe(1);
    expect(out).toMatch(/^ {2}held {5}openapi /m);
    expect(out).not.toMatch(/^ {2}broken (?!diff)/m);
    expect(out).toContain(
      `  broken diff: the served contract could not be compared with the kit's contract: ` +
        `oasdiff: failed to load revision spec from "${externalRef.url}/api/v1/openapi.json": ` +
        `encountered disallowed external reference: "schemas.json#/Firm"\n`,
    );
    expect((await json(join(dir, 'ref-run.json'))).diff).toMatchObject({
      status: 'failed',
      breaking: [{ id: 'contract-unreadable' }],
    });
    expect(await readFile(join(dir, 'ref-run.xml'), 'utf8')).toMatch(
      new RegExp(
        /<testsuites [^>]*failures="1"[^]*<testsuite name="contract diff" /.source +
          /tests="1" failures="1"[^]*type="UnreadableContract"/.source,
      ),
    );
  });
});

test('without oasdiff or Go to build it, diff says so in a line naming OASDIFF_BIN and Go, exit 3', async () => {
  const env = { OASDIFF_BIN: '', KIT_CACHE: join(dir, 'empty-cache'), PATH: join(process.execPath, '..') };
  const report = join(dir, 'no-oasdiff.json');
  const { code, out } = await run(['diff', '--base-url', clean.url, '--report', report], env);
  expect(code, out).toBe(3);
  expect(out).toBe(
    '[investor-graph-contract-tests] the diff could not run: oasdiff is not installed, and ' +
      'there is no Go to build it: set OASDIFF_BIN to an oasdiff binary, or install Go 1.26 or ' +
      'later and the kit builds it once from the Go module proxy\n',
  );
  expect(await json(report)).toMatchObject({ status: 'not-run', reason: expect.stringContaining('OASDIFF_BIN') });
  const named = await run(['diff', '--base-url', clean.url], { OASDIFF_BIN: join(dir, 'no-such-oasdiff') });
  expect(named.code, named.out).toBe(3);
  expect(named.out).toContain(`OASDIFF_BIN names ${join(dir, 'no-such-oasdiff')}, which is not there`);
});

test('a run without oasdiff notes it in one line and the report says not-run, without failing the run', async () => {
  const report = join(dir, 'run-no-oasdiff.json');
  const env = {
    INVESTOR_GRAPH_KEY: key,
    OASDIFF_BIN: '',
    KIT_CACHE: join(dir, 'empty-cache'),
    PATH: join(process.execPath, '..'),
  };
  const { code, out } = await run(runArgs(clean.url, 'run-no-oasdiff'), env);
  expect(code, out).toBe(0);
  expect(out.split('\n').filter((line) => /(held|broken) diff|diff not run/.test(line))).toEqual([
    "  diff not run (the kit's contract): oasdiff is not installed, and there is no Go to " +
      'build it: set OASDIFF_BIN to an oasdiff binary, or install Go 1.26 or later and the kit ' +
      'builds it once from the Go module proxy',
  ]);
  expect((await json(report)).diff).toEqual({
    status: 'not-run',
    against: 'kit',
    reason: expect.stringMatching(/^oasdiff is not installed/),
    breaking: [],
    non_breaking: [],
  });
  expect(await readFile(join(dir, 'run-no-oasdiff.xml'), 'utf8')).toMatch(
    /<testsuite name="contract diff" tests="1" failures="0" errors="0" skipped="1"/,
  );
});

test('bad usage of diff is one line pointing at diff --help, and exit 2, before anything is read', async () => {
  const cases: [string[], RegExp][] = [
    [[], /give --base-url URL or --contract FILE/],
    [['--base-url', clean.url, '--contract', cli], /give --base-url URL or --contract FILE \(one of them\)/],
    [['--base-url', 'ftp://x'], /--base-url must be http or https/],
    [['--contract', join(dir, 'missing.yaml')], /--contract .*missing\.yaml: no such file/],
    [['--contract', cli], /--contract .*cli\.ts is no OpenAPI 3 document/],
    [['--base-url', clean.url, '--baseline', join(dir, 'missing.json')], /--baseline .*: no such file/],
    [['--base-url', clean.url, '--report', dir], /--report .*: is a folder, not a file/],
    [
      ['--base-url', clean.url, '--junit', join(dir, 'same.xml'), '--report', `${dir}/./same.xml`],
      /--junit and --report name the same file/,
    ],
    [['--base-url', clean.url, '--bseline', 'x'], /Unknown option '--bseline'\. Did you mean --baseline\?/],
  ];
  for (const [args, message] of cases) {
    const { code, out } = await run(['diff', ...args]);
    expect(code, out).toBe(2);
    expect(out.trim().split('\n'), out).toHaveLength(1);
    expect(out).toMatch(message);
    expect(out.trim()).toMatch(
      /^\[investor-graph-contract-tests\] .* \(see investor-graph-contract-tests diff --help\)$/,
    );
  }
}, 60_000);
