/**
 * The contract diff on real contracts: the kit's own, and copies of it changed the ways a service
 * drifts, each compared by real oasdiff.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from '@investor-graph/cli';
import { contractDiff, contractProblem, kitContract } from './diff.ts';
import { oasdiff, oasdiffMissing } from './diff-oasdiff.test-support.ts';
import type { DiffSection } from './diff.ts';

type Contract = {
  paths: Record<string, Record<string, { parameters?: unknown[]; responses: Record<string, unknown> }>>;
  components: {
    schemas: Record<string, { properties?: Record<string, unknown>; required?: string[]; enum?: string[] }>;
  };
};

const dir = mkdtempSync(join(tmpdir(), 'ig-contract-diff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the kit's contract, as the package ships it, changed by `change`; its path. */
function served(name: string, change: (contract: Contract) => void = () => {}): string {
  const contract = JSON.parse(readFileSync(kitContract(), 'utf8')) as Contract;
  change(contract);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(contract, null, 2));
  return file;
}
const diff = (file: string, baseline?: string): Promise<DiffSection> =>
  contractDiff({ served: { file }, ...(baseline ? { baseline } : {}), oasdiff: { bin: oasdiff.bin! } });
const ids = (changes: DiffSection['breaking']) => changes.map((c) => `${c.id} ${c.operation ?? ''}`.trim());

describe.skipIf(!oasdiff.bin)(
  `the served contract against the kit's, by oasdiff${oasdiff.skip ? ` (skipped: ${oasdiff.skip})` : ''}`,
  () => {
    test("the kit's contract unchanged is clean: passed, with no change listed", async () => {
      expect(await diff(served('unchanged'))).toEqual({
        status: 'passed',
        against: 'kit',
        breaking: [],
        non_breaking: [],
      });
    });

    test('a removed response field breaks clients, on every operation that serves it', async () => {
      const section = await diff(
        served('removed-field', (c) => {
          delete c.components.schemas.Firm!.properties!.website;
          c.components.schemas.Firm!.required = c.components.schemas.Firm!.required!.filter(
            (name) => name !== 'website',
          );
        }),
      );
      expect(section.status).toBe('failed');
      expect(ids(section.breaking)).toEqual(
        expect.arrayContaining([
          'response-required-property-removed GET /api/v1/firms',
          'response-required-property-removed GET /api/v1/firms/{slug}',
        ]),
      );
      expect(section.breaking.find((c) => c.operation === 'GET /api/v1/firms/{slug}')!.text).toContain('data/website');
    });

    test('a narrowed enum of a parameter breaks clients that send the value taken out', async () => {
      const section = await diff(
        served('narrowed-enum', (c) => {
          c.components.schemas.StatisticName!.enum = c.components.schemas.StatisticName!.enum!.filter(
            (name) => name !== 'fund-returns-by-vintage',
          );
        }),
      );
      expect(section.status).toBe('failed');
      expect(section.breaking).toContainEqual(
        expect.objectContaining({
          id: 'request-parameter-enum-value-removed',
          operation: 'GET /api/v1/statistics/{name}',
          text: expect.stringContaining('fund-returns-by-vintage'),
        }),
      );
    });

    test('a new required parameter breaks every client that does not send it', async () => {
      const section = await diff(
        served('required-parameter', (c) => {
          c.paths['/api/v1/rounds']!.get!.parameters!.push({
            name: 'region',
            in: 'query',
            required: true,
            schema: { type: 'string' },
          });
        }),
      );
      expect(section.status).toBe('failed');
      expect(ids(section.breaking)).toContain('new-required-request-parameter GET /api/v1/rounds');
    });

    test('a changed success status (200 answered as 203) breaks clients', async () => {
      const section = await diff(
        served('changed-status', (c) => {
          const responses = c.paths['/api/v1/firms/{slug}']!.get!.responses;
          responses['203'] = responses['200'];
          delete responses['200'];
        }),
      );
      expect(section.status).toBe('failed');
      expect(ids(section.breaking)).toContain('response-success-status-removed GET /api/v1/firms/{slug}');
      // The new status alone would not have broken anyone: it is listed apart.
      expect(ids(section.non_breaking)).toContain('response-success-status-added GET /api/v1/firms/{slug}');
    });

    test("a removed status (the trial key's 201) breaks clients", async () => {
      const section = await diff(
        served('removed-status', (c) => {
          delete c.paths['/api/v1/keys/trial']!.post!.responses['201'];
        }),
      );
      expect(section.status).toBe('failed');
      expect(ids(section.breaking)).toContain('response-success-status-removed POST /api/v1/keys/trial');
    });

    test('a removed operation breaks clients', async () => {
      const section = await diff(served('removed-operation', (c) => void delete c.paths['/api/v1/offerings']));
      expect(section.status).toBe('failed');
      expect(ids(section.breaking)).toContain('api-path-removed-without-deprecation GET /api/v1/offerings');
    });

    test('an oasdiff warning breaks clients too: a parameter removed is a 400 to a client that sends it', async () => {
      const section = await diff(
        served('removed-parameter', (c) => {
          const rounds = c.paths['/api/v1/rounds']!.get!;
          rounds.parameters = rounds.parameters!.filter(
            (p) => (p as { $ref?: string }).$ref !== '#/components/parameters/AnnouncedSince',
          );
        }),
      );
      expect(section.status).toBe('failed');
      expect(section.breaking).toEqual([
        expect.objectContaining({
          id: 'request-parameter-removed',
          operation: 'GET /api/v1/rounds',
          text: expect.stringMatching(/announced_since.*\(may break some clients\)$/),
        }),
      ]);
    });

    test('a new optional field is listed as non-breaking, and the diff passes', async () => {
      const section = await diff(
        served('optional-field', (c) => {
          c.components.schemas.Firm!.properties!.nickname = { type: 'string', maxLength: 100 };
        }),
      );
      expect(section.status).toBe('passed');
      expect(section.breaking).toEqual([]);
      expect(ids(section.non_breaking)).toEqual(
        expect.arrayContaining([
          'response-optional-property-added GET /api/v1/firms',
          'response-optional-property-added GET /api/v1/firms/{slug}',
        ]),
      );
    });

    test('a new operation is listed as non-breaking, and the diff passes', async () => {
      const section = await diff(
        served('new-operation', (c) => {
          c.paths['/api/v1/widgets'] = { get: { responses: { '200': { description: 'The widgets.' } } } };
        }),
      );
      expect(section).toEqual({
        status: 'passed',
        against: 'kit',
        breaking: [],
        non_breaking: [{ id: 'endpoint-added', operation: 'GET /api/v1/widgets', text: 'endpoint added' }],
      });
    });

    test('against a baseline (the last seen): what the service dropped breaks clients, not the reverse', async () => {
      const without = served('baseline-without-offerings', (c) => void delete c.paths['/api/v1/offerings']);
      const grown = await diff(served('unchanged-again'), without);
      expect(grown).toMatchObject({ status: 'passed', against: without, breaking: [] });
      expect(ids(grown.non_breaking)).toContain('endpoint-added GET /api/v1/offerings');
      expect(await diff(without, served('baseline-whole'))).toMatchObject({
        status: 'failed',
        against: expect.stringContaining('baseline-whole'),
      });
    });

    test('served names with line breaks or terminal escapes stay on their line, shown as \\xNN', async () => {
      const section = await diff(
        served('control-characters', (c) => {
          c.paths['/api/v1/\u001b[31mwidgets\nmore'] = {
            get: { responses: { '200': { description: 'The widgets.' } } },
          };
        }),
      );
      expect(section.non_breaking.map((change) => change.operation)).toEqual(['GET /api/v1/\\x1b[31mwidgets\\x0amore']);
    });

    test('a contract oasdiff cannot read fails the diff, what oasdiff said its reason and breaking entry', async () => {
      const broken = join(dir, 'broken.yaml');
      writeFileSync(broken, 'openapi: 3.1.0\npaths: [\n');
      const section = await diff(broken);
      expect(section).toMatchObject({
        status: 'failed',
        breaking: [{ id: 'contract-unreadable', text: section.reason }],
        non_breaking: [],
      });
      expect(section.reason).toMatch(/^oasdiff: failed to load revision spec from ".*broken\.yaml": /);
    });

    test('a new response enum value is an error to oasdiff 1.36, and so breaks clients (not a warning)', async () => {
      const section = await diff(
        served(
          'response-enum-value',
          (c) => void (c.components.schemas.Change!.properties!.kind as { enum: string[] }).enum.push('delete'),
        ),
      );
      expect(section.status).toBe('failed');
      expect(section.breaking).toContainEqual({
        id: 'response-property-enum-value-added',
        operation: 'GET /api/v1/changes',
        text: expect.not.stringContaining('may break some clients'),
      });
    });

    describe("a user's contract in two files (--contract, --baseline): its relative $refs are followed", () => {
      /**
       * The kit's contract with its schemas in schemas.json beside openapi.json, changed by
       * `change`; the main file's path.
       */
      function twoFiles(name: string, change: (schemas: Contract['components']['schemas']) => void = () => {}): string {
        const contract = JSON.parse(readFileSync(kitContract(), 'utf8')) as Contract;
        const folder = join(dir, name);
        mkdirSync(folder);
        change(contract.components.schemas);
        writeFileSync(
          join(folder, 'schemas.json'),
          JSON.stringify({ components: { schemas: contract.components.schemas } }),
        );
        contract.components.schemas = Object.fromEntries(
          Object.keys(contract.components.schemas).map((schema) => [
            schema,
            { $ref: `schemas.json#/components/schemas/${schema}` },
          ]),
        ) as Contract['components']['schemas'];
        writeFileSync(join(folder, 'openapi.json'), JSON.stringify(contract));
        return join(folder, 'openapi.json');
      }

      test("the kit's contract split in two is the kit's contract: passed, no change", async () => {
        expect(await diff(twoFiles('split'))).toEqual({
          status: 'passed',
          against: 'kit',
          breaking: [],
          non_breaking: [],
        });
      });

      test('a field removed in the file a $ref names is seen, as a change that breaks clients', async () => {
        const section = await diff(
          twoFiles('split-removed-field', (schemas) => void delete schemas.Firm!.properties!.website),
        );
        expect(section.status).toBe('failed');
        expect(section.breaking.map((c) => c.operation)).toContain('GET /api/v1/firms/{slug}');
      });

      test('a baseline in two files works too, in both directions', async () => {
        const baseline = twoFiles('split-baseline');
        expect(await diff(served('unchanged-against-split'), baseline)).toMatchObject({
          status: 'passed',
          breaking: [],
        });
        expect(
          await diff(
            served('dropped-against-split', (c) => void delete c.paths['/api/v1/offerings']),
            baseline,
          ),
        ).toMatchObject({ status: 'failed', breaking: [{ id: 'api-path-removed-without-deprecation' }] });
      });
    });
  },
);

describe.skipIf(!oasdiff.bin)(
  `the contract a service serves, read from it over HTTP${oasdiff.skip ? ` (skipped: ${oasdiff.skip})` : ''}`,
  () => {
    /** What the service answers at /api/v1/openapi.json: set by each test. */
    let answer: { status: number; type: string; body: string } = { status: 200, type: 'application/json', body: '' };
    /** Every path asked of the service, as a $ref to it would show. */
    const asked: string[] = [];
    let server: Server;
    let base: string;
    beforeAll(async () => {
      server = createServer((request, response) => {
        asked.push(request.url ?? '');
        if (request.url === '/api/v1/openapi.json')
          response.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
        else response.writeHead(200, { 'content-type': 'application/json' }).end('{"Firm": {"type": "object"}}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const serve = (status: number, body: string, type = 'application/json') => void (answer = { status, type, body });
    const servedDiff = (baseline?: string) =>
      contractDiff({ served: { baseUrl: base }, ...(baseline ? { baseline } : {}), oasdiff: { bin: oasdiff.bin! } });
    /** The kit's contract with the Firm schema a $ref to another file, `target`. */
    const withExternalRef = (target: string): string => {
      const contract = JSON.parse(readFileSync(kitContract(), 'utf8')) as Contract;
      (contract.components.schemas as Record<string, unknown>).Firm = { $ref: target };
      return JSON.stringify(contract);
    };

    test("the kit's contract served unchanged passes", async () => {
      serve(200, readFileSync(kitContract(), 'utf8'));
      expect(await servedDiff()).toEqual({ status: 'passed', against: 'kit', breaking: [], non_breaking: [] });
    });

    test('no contract served (each way) fails the diff; its one breaking entry says why, with the URL', async () => {
      const url = `${base}/api/v1/openapi.json`;
      const cases: [number, string, string, string][] = [
        [
          404,
          '{"type":"about:blank","status":404}',
          'application/problem+json',
          `${url} answered 404, not the contract`,
        ],
        [500, '<html>Internal Server Error</html>', 'text/html', `${url} answered 500, not the contract`],
        [
          200,
          '<html>Service unavailable</html>',
          'text/html',
          `${url} is no OpenAPI 3 document (no openapi: 3.x at its top)`,
        ],
        [200, '{}', 'application/json', `${url} is no OpenAPI 3 document (its openapi field is not 3.x)`],
        [200, '{"openapi": "3.1.0", "paths": ', 'application/json', `${url} is not JSON`],
      ];
      for (const [status, body, type, reason] of cases) {
        serve(status, body, type);
        const section = await servedDiff();
        expect(section, `${status} ${body}`).toEqual({
          status: 'failed',
          against: 'kit',
          reason: expect.stringContaining(reason),
          breaking: [{ id: 'contract-unreadable', text: section.reason }],
          non_breaking: [],
        });
      }
    });

    test('a service that cannot be reached fails the diff too', async () => {
      const nobody = `http://127.0.0.1:${await freePort()}`;
      const section = await contractDiff({ served: { baseUrl: nobody }, oasdiff: { bin: oasdiff.bin! } });
      expect(section).toMatchObject({
        status: 'failed',
        reason: `cannot read ${nobody}/api/v1/openapi.json: ECONNREFUSED`,
      });
    });

    test('a served $ref to another file fails the diff; the kit never follows it (to a file or a host)', async () => {
      for (const target of ['schemas.json#/Firm', `${base}/elsewhere.json#/Firm`, '/etc/hostname']) {
        serve(200, withExternalRef(target));
        asked.length = 0;
        const section = await servedDiff();
        expect(section, target).toMatchObject({
          status: 'failed',
          reason: expect.stringMatching(
            new RegExp(
              /^oasdiff: failed to load revision spec from /.source +
                /".*\/api\/v1\/openapi\.json": encountered disallowed external /.source +
                /reference/.source,
            ),
          ),
          breaking: [{ id: 'contract-unreadable' }],
        });
        expect(asked, target).toEqual(['/api/v1/openapi.json']);
      }
    });

    test("a user's baseline in files has its refs followed; the served contract's are still refused", async () => {
      const folder = join(dir, 'served-against-split');
      mkdirSync(folder);
      const contract = JSON.parse(readFileSync(kitContract(), 'utf8')) as Contract;
      // The schemas where Firm's own $refs (#/components/schemas/...) find them in that file too.
      writeFileSync(join(folder, 'schemas.json'), JSON.stringify({ components: contract.components }));
      writeFileSync(join(folder, 'openapi.json'), withExternalRef('schemas.json#/components/schemas/Firm'));
      const baseline = join(folder, 'openapi.json');
      serve(200, readFileSync(kitContract(), 'utf8'));
      const clean = await servedDiff(baseline);
      expect(clean, clean.reason).toMatchObject({ status: 'passed', against: baseline });
      serve(200, withExternalRef(`${base}/elsewhere.json#/Firm`));
      asked.length = 0;
      expect(await servedDiff(baseline)).toMatchObject({
        status: 'failed',
        reason: expect.stringMatching(/disallowed external reference/),
      });
      expect(asked).toEqual(['/api/v1/openapi.json']);
    });
  },
);

test("without oasdiff and without Go the diff's tests skip saying why, except under CI, where they fail", () => {
  expect(oasdiffMissing('the diff', { haveGo: false, env: {} })).toMatch(/no go on PATH: the diff is not run/);
  expect(() => oasdiffMissing('the diff', { haveGo: false, env: { CI: 'true' } })).toThrow(
    /^CI needs oasdiff for the diff: OASDIFF_BIN is not set/,
  );
  expect(oasdiffMissing('the diff', { haveGo: false, env: { CI: 'true', OASDIFF_BIN: '/opt/oasdiff' } })).toBeNull();
  expect(oasdiffMissing('the diff', { haveGo: true, env: { CI: 'true' } })).toBeNull();
});

test('a document that is no OpenAPI 3 contract is refused before oasdiff, which sees every operation removed', () => {
  expect(contractProblem('{}')).toMatch(/no OpenAPI 3 document/);
  expect(contractProblem('<html>Service unavailable</html>')).toMatch(/no OpenAPI 3 document/);
  expect(contractProblem('{"openapi": "2.0"')).toMatch(/is not JSON/);
  expect(contractProblem(readFileSync(kitContract(), 'utf8'))).toBeNull();
  expect(contractProblem('# the contract\nopenapi: "3.1.0"\npaths: {}\n')).toBeNull();
});
