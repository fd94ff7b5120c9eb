// @module-tag servers
/**
 * Schemathesis as a second opinion on the mock: every phase (examples, coverage, fuzzing, stateful
 * through the contract's links) and every check, against the mock as the CLI serves it, must come
 * out clean. What it may not count as a failure is in packages/mock/schemathesis/exceptions.py alone, each
 * with its reason; the run reads nothing else. Schemathesis comes pinned from PyPI into a virtual
 * environment (packages/mock/schemathesis/install.sh, made by `pnpm test` before the tests); without Python
 * the tests are skipped, saying so.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { canRun } from '@investor-graph/cli';
import { operations } from '@investor-graph/contract';
import type { FaultName } from '@investor-graph/engine/faults';
import { startMock, type RunningMock } from '../../cli/start-mock.ts';

const folder = join(import.meta.dirname, '../../../schemathesis');
/** The runs' report folders, removed at the end. */
const temps: string[] = [];
const havePython = canRun(process.env.PYTHON ?? 'python3', [
  '-c',
  'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))',
]);

interface RunReport {
  exit_code: number;
  phases: Record<string, { status: string }>;
  operations: { total: number; tested: number; errored: number };
  failures: { code: string; operations: string[] }[];
  errors: unknown[];
  filtered: number;
  warnings: Record<string, unknown[]>;
}

/** One Schemathesis run with the kit's settings against `mock`; resolves with its JSON report and console text. */
function schemathesis(
  bin: string,
  mock: RunningMock,
  key: string,
  extra: string[] = [],
): Promise<{ report: RunReport; out: string; files: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'ig-schemathesis-'));
  temps.push(dir);
  const args = [
    '--config-file',
    'schemathesis.toml',
    'run',
    `${mock.url}/api/v1/openapi.json`,
    '--report',
    'json,junit',
    '--report-dir',
    dir,
    ...extra,
  ];
  // The key in the environment (schemathesis.toml reads it), never on the command line. Nothing
  // written beside exceptions.py (no bytecode, Hypothesis's own files in the run's folder), nothing
  // read from the user's Python set-up.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    INVESTOR_GRAPH_KEY: key,
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONNOUSERSITE: '1',
    HYPOTHESIS_STORAGE_DIRECTORY: join(dir, 'hypothesis'),
    NO_COLOR: '1',
  };
  delete env.SCHEMATHESIS_HOOKS;
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: folder, env });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', () => {
      const names = readdirSync(dir).filter((n) => n !== 'hypothesis');
      const json = names.find((n) => n.endsWith('.json'));
      if (!json) return reject(new Error(`Schemathesis wrote no report:\n${out}`));
      const files = names.map((n) => readFileSync(join(dir, n), 'utf8')).join('\n');
      resolve({ report: JSON.parse(readFileSync(join(dir, json), 'utf8')) as RunReport, out, files });
    });
  });
}

describe.skipIf(!havePython)(
  'Schemathesis against the mock (from PyPI into a virtual environment; it needs Python 3.11+)',
  () => {
    let bin: string;
    const key = `igk_enterprise_${randomBytes(16).toString('hex')}`;
    const mocks: RunningMock[] = [];
    /** The mock as `investor-graph-mock --no-rate-limit` serves it: Schemathesis sends far more than a plan's rate. */
    const start = async (faults: FaultName[] = []) => {
      const mock = await startMock({
        port: 0,
        host: '127.0.0.1',
        keys: [{ plan: 'enterprise', key }],
        rateLimit: false,
        faults,
      });
      mocks.push(mock);
      return mock;
    };

    /** Why Schemathesis cannot run here (no Python 3.11+ with venv): the tests are skipped with it. */
    let unavailable = '';
    beforeAll(() => {
      // `pnpm test` installed it first (SCHEMATHESIS_BIN), or said why not (an empty one).
      if (process.env.SCHEMATHESIS_BIN !== undefined) {
        bin = process.env.SCHEMATHESIS_BIN;
        if (!bin) unavailable = 'pnpm test could not install Schemathesis (its line above says why)';
        return;
      }
      try {
        bin = execFileSync('bash', [join(folder, 'install.sh')], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        }).trim();
      } catch (error) {
        // Exit 3: no Python 3.11+ with venv here, a skip; any other failure is the kit's, a failure.
        const said = String((error as { stderr?: unknown }).stderr ?? error).trim();
        if ((error as { status?: number }).status !== 3)
          throw new Error(`packages/mock/schemathesis/install.sh failed:\n${said}`);
        unavailable = `packages/mock/schemathesis/install.sh: ${said.split('\n').at(-1)}`;
      }
    }, 600_000);
    afterAll(async () => {
      await Promise.all(mocks.map((m) => m.close()));
      for (const dir of temps) rmSync(dir, { recursive: true, force: true });
    });

    test(
      'every phase and every check finds nothing in the ' + 'mock but the listed exceptions, on every operation',
      async (ctx) => {
        if (unavailable) return ctx.skip(unavailable);
        const before = readdirSync(folder).sort();
        const { report, out, files } = await schemathesis(bin, await start(), key);
        expect(report.failures, out).toEqual([]);
        expect(report.errors, out).toEqual([]);
        expect(report.exit_code, out).toBe(0);
        expect(Object.fromEntries(Object.entries(report.phases).map(([name, phase]) => [name, phase.status]))).toEqual({
          examples: 'success',
          coverage: 'success',
          fuzzing: 'success',
          stateful: 'success',
        });
        // Every operation but the one Schemathesis read the contract from, which it leaves out itself.
        const tested = operations.filter((o) => o.path !== '/api/v1/openapi.json').length;
        expect(report.operations).toMatchObject({ total: tested, tested, errored: 0 });
        // Not even a warning: no operation left untested behind 429s or unreachable test data.
        expect(
          Object.entries(report.warnings).filter(([, found]) => found.length),
          out,
        ).toEqual([]);
        // The stateful phase followed the contract's links (the NextPage walks among them).
        expect(out).toMatch(/API Links:\s+[1-9]\d* covered/);
        // The key is a secret: neither the console nor the reports carry it.
        expect(out + files).not.toContain(key);
        // And the run wrote nothing beside its settings (no bytecode, no Hypothesis database).
        expect(readdirSync(folder).sort()).toEqual(before);
      },
      300_000,
    );

    test('a mock that breaks the contract fails the run: 500 for bad input, 403 for a bad key', async (ctx) => {
      if (unavailable) return ctx.skip(unavailable);
      const { report, out } = await schemathesis(bin, await start(['server-error-on-bad-input', 'wrong-status']), key, [
        '--phases',
        'examples,coverage',
        '--max-examples',
        '5',
      ]);
      expect(report.exit_code, out).not.toBe(0);
      const codes = report.failures.map((f) => f.code);
      // ST101: a 5xx; ST103: a status the contract does not list for the operation.
      expect(codes, out).toEqual(expect.arrayContaining(['ST101', 'ST103']));
    }, 300_000);

    test(
      'an exception excuses only what its reason covers: a cursor the ' +
        'mock issued for this request and still refused is a failure',
      (ctx) => {
        if (unavailable) return ctx.skip(unavailable);
        const python = join(bin, '../python');
        const verdicts = execFileSync(python, ['-c', EXCEPTION_PROBE], {
          cwd: folder,
          encoding: 'utf8',
          env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
        });
        expect(JSON.parse(verdicts)).toEqual({
          'never issued': true,
          'issued for other filters': true,
          'issued for this request': false,
          'another problem code': false,
          'another check': false,
          '413 payload_too_large on a negative case': true,
          '414 uri_too_long on a negative case': true,
          '413 under another check': false,
          '400 on a negative case': false,
        });
      },
    );
  },
);

/** Feeds exceptions.py's filter_failure hand-made exchanges (Python: the hooks are Python). */
const EXCEPTION_PROBE = String.raw`
import json, types, exceptions as ex
class Response:
    def __init__(self, status, code): self.status_code, self.code = status, code
    def json(self): return {"code": self.code}
def case(query, label="GET /api/v1/rounds"):
    return types.SimpleNamespace(query=query, path_parameters={}, operation=types.SimpleNamespace(label=label))
issued = case({"announced_since": "2025-01-01"})
ex.after_call(None, issued, types.SimpleNamespace(json=lambda: {"next_cursor": "abc.def"}))
ST202, ST201 = types.SimpleNamespace(code="ST202"), types.SimpleNamespace(code="ST201")
excused = lambda failure, c, r: not ex.filter_failure(None, failure, c, r)
print(json.dumps({
    "never issued": excused(ST202, case({"cursor": "zzz.yyy"}), Response(400, "invalid_cursor")),
    "issued for other filters": excused(ST202, case({"cursor": "abc.def"}), Response(400, "invalid_cursor")),
    "issued for this request": excused(
        ST202, case({"cursor": "abc.def", "announced_since": "2025-01-01"}), Response(400, "invalid_cursor")
    ),
    "another problem code": excused(ST202, case({"cursor": "zzz.yyy"}), Response(400, "invalid_parameter")),
    "another check": excused(
        types.SimpleNamespace(code="ST101"), case({"cursor": "zzz.yyy"}), Response(400, "invalid_cursor")
    ),
    "413 payload_too_large on a negative case": excused(
        ST201, case(None, "POST /api/v1/keys/trial"), Response(413, "payload_too_large")
    ),
    "414 uri_too_long on a negative case": excused(ST201, case({"limit": "9" * 9000}), Response(414, "uri_too_long")),
    "413 under another check": excused(
        ST202, case(None, "POST /api/v1/keys/trial"), Response(413, "payload_too_large")
    ),
    "400 on a negative case": excused(ST201, case(None, "POST /api/v1/keys/trial"), Response(400, "invalid_body")),
}))
`;
