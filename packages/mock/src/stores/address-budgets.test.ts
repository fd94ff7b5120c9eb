// @module-tag servers
/**
 * The third round of hostile probes (issue #51), on admission: every budget of a client address
 * (calls without a valid key, the trial cap, admin-token tries) is spent in one atomic step before
 * anything is looked up, so calls sent together cannot all pass a budget only some fit in, whether
 * they come pipelined on one connection, in parallel on many, or to several mocks sharing a store.
 */
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { failedAuth, trialKeysPerMinute } from '@investor-graph/contract/plans';
import { newKeyText } from '@investor-graph/engine';
import { startMock, type RunningMock, type StartOptions } from '../node.ts';
import { newRecord } from '@investor-graph/engine/adapter';
import { SqliteKeyStore } from './sqlite/key-store.ts';
import { missing, startRedis } from './redis/servers.test-support.ts';

const temp = mkdtempSync(join(tmpdir(), 'ig-admission-'));
const running: RunningMock[] = [];
afterAll(() => Promise.all(running.map((m) => m.close())));

async function mock(options: StartOptions = {}): Promise<RunningMock> {
  const started = await startMock({ port: 0, ...options });
  running.push(started);
  return started;
}

/** A key of the kit's form that no store holds. */
const wrongKey = (i: number): string => `igk_team_${String(i).padStart(32, 'x')}`;

/**
 * Writes `paths` as pipelined GETs on one connection, each with its own Authorization, in one
 * write from `localAddress`, and reads every answer: the statuses and problem codes in order.
 */
function pipelined(
  base: string,
  keys: readonly string[],
  localAddress = '127.0.0.1',
): Promise<{ status: number; code: string | null }[]> {
  const { port } = new URL(base);
  const requests = keys.map(
    (key, i) =>
      `GET /api/v1/firms?limit=1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\n` +
      `${i === keys.length - 1 ? 'Connection: close\r\n' : ''}\r\n`,
  );
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress }, () =>
      socket.write(requests.join('')),
    );
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (text += d));
    socket.on('error', reject);
    socket.setTimeout(30_000, () =>
      socket.destroy(new Error(`only part of the answers came in 30 s: ${text.length} bytes`)),
    );
    socket.on('close', () => {
      const answers = [...text.matchAll(/HTTP\/1\.1 (\d{3})[^]*?\r\n\r\n/g)].map((m) => {
        const after = text.slice(m.index + m[0].length, m.index + m[0].length + 4096);
        return { status: Number(m[1]), code: /"code":"([a-z_]+)"/.exec(after)?.[1] ?? null };
      });
      resolve(answers);
    });
  });
}

/** Of the answers, how many looked a key up (401) and how many were refused for the budget (429). */
function tally(answers: { status: number; code: string | null }[]): { looked: number; refused: number; other: number } {
  const looked = answers.filter((a) => a.status === 401).length;
  const refused = answers.filter((a) => a.status === 429 && a.code === 'too_many_failures').length;
  return { looked, refused, other: answers.length - looked - refused };
}

/** The most keys a budget lets through in `ms`: its burst and what refilled meanwhile, and one for the edge. */
const allowedIn = (ms: number): number => failedAuth.burst + Math.ceil((ms / 1000) * failedAuth.perSecond) + 1;

describe('the budget of calls without a valid key holds under pipelining', () => {
  test(
    '300 wrong keys pipelined on one connection: at most ' + 'the budget of them are looked up, the rest are 429',
    async () => {
      const { url } = await mock();
      const started = performance.now();
      const answers = await pipelined(
        url,
        Array.from({ length: 300 }, (_, i) => wrongKey(i)),
      );
      const { looked, refused, other } = tally(answers);
      expect(answers).toHaveLength(300);
      expect(other).toBe(0);
      expect(looked).toBeGreaterThanOrEqual(failedAuth.burst);
      expect(looked).toBeLessThanOrEqual(allowedIn(performance.now() - started));
      expect(refused).toBe(300 - looked);
    },
  );

  test('wrong keys pipelined on four fresh connections at once spend one budget together', async () => {
    const { url } = await mock();
    const started = performance.now();
    const answers = (
      await Promise.all(
        [0, 1, 2, 3].map((c) =>
          pipelined(
            url,
            Array.from({ length: 150 }, (_, i) => wrongKey(c * 1000 + i)),
          ),
        ),
      )
    ).flat();
    const { looked, other } = tally(answers);
    expect(other).toBe(0);
    expect(looked).toBeLessThanOrEqual(allowedIn(performance.now() - started));
  });

  test("a budget is an address's own: another loopback address is still looked up in full", async () => {
    const { url } = await mock();
    await pipelined(
      url,
      Array.from({ length: 150 }, (_, i) => wrongKey(i)),
      '127.0.0.1',
    );
    const other = tally(
      await pipelined(
        url,
        Array.from({ length: 50 }, (_, i) => wrongKey(1000 + i)),
        '127.0.0.2',
      ),
    );
    expect(other.looked).toBe(50);
  });

  test(
    'a valid key never met before, pipelined 200 times at ' +
      'once, is never taken for a failure (no too_many_failures)',
    async () => {
      const key = newKeyText('enterprise');
      const { url } = await mock({ keys: [{ plan: 'enterprise', key }] });
      const answers = await pipelined(
        url,
        Array.from({ length: 200 }, () => key),
      );
      expect(answers).toHaveLength(200);
      expect(answers.filter((a) => a.code === 'too_many_failures')).toEqual([]);
      // Past its burst the key meets its own rate, as any client of the plan would.
      expect(answers.every((a) => a.status === 200 || a.code === 'rate_limited')).toBe(true);
    },
  );

  test('a scheme written in lower case (RFC 6750: case-insensitive) authenticates like Bearer', async () => {
    const key = newKeyText('team');
    const { url } = await mock({ keys: [{ plan: 'team', key }] });
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      expect(
        (await fetch(`${url}/api/v1/firms?limit=1`, { headers: { authorization: `${scheme} ${key}` } })).status,
        scheme,
      ).toBe(200);
    }
  });
});

describe('mocks sharing a state database share every address budget', () => {
  test('two mocks on one SQLite file: the budget one spent is gone on the other', async () => {
    const state = join(temp, 'shared-budget.db');
    const [a, b] = [await mock({ stateFile: state }), await mock({ stateFile: state })];
    const started = performance.now();
    const first = tally(
      await pipelined(
        a.url,
        Array.from({ length: 150 }, (_, i) => wrongKey(i)),
      ),
    );
    const second = tally(
      await pipelined(
        b.url,
        Array.from({ length: 50 }, (_, i) => wrongKey(500 + i)),
      ),
    );
    expect(first.looked + second.looked).toBeLessThanOrEqual(allowedIn(performance.now() - started));
    expect(second.refused).toBeGreaterThan(0);
  });

  test('two stores on one SQLite file share the trial cap and each bucket, step by step', () => {
    const file = join(temp, 'shared-buckets.db');
    const [one, two] = [SqliteKeyStore.open(file), SqliteKeyStore.open(file)];
    try {
      const now = Date.parse('2026-11-01T00:00:00Z');
      const cap = { perMinute: trialKeysPerMinute, at: 0 };
      for (let i = 0; i < trialKeysPerMinute; i++) {
        const store = i % 2 ? one : two;
        expect(
          store.insertTrial(
            newRecord('trial', `igk_trial_${String(i).padStart(32, '0')}`, `hash-${i}`, now, `email-${i}`, 0),
            now,
            cap,
          ),
        ).toBe('inserted');
      }
      const over = one.insertTrial(
        newRecord('trial', `igk_trial_${'z'.repeat(32)}`, 'hash-over', now, 'email-over', 0),
        now,
        cap,
      );
      expect(over).toEqual({ wait: expect.any(Number) });
      for (let i = 0; i < 3; i++) expect(one.buckets().take('admin-token', '10.0.0.9', 3, 0.01).wait).toBe(0);
      expect(two.buckets().take('admin-token', '10.0.0.9', 3, 0.01).wait).toBeGreaterThan(0);
    } finally {
      one.close();
      two.close();
    }
  });

  const noRedis = missing('redis-server');
  test.skipIf(noRedis !== null)(
    `two mocks on one Redis: wrong keys pipelined to both at once ` +
      `spend one budget${noRedis ? ` (skipped: ${noRedis})` : ''}`,
    async () => {
      const redis = await startRedis();
      try {
        const [a, b] = [await mock({ stateFile: redis.url }), await mock({ stateFile: redis.url })];
        const started = performance.now();
        const answers = (
          await Promise.all(
            [a, b].map((m, n) =>
              pipelined(
                m.url,
                Array.from({ length: 150 }, (_, i) => wrongKey(n * 1000 + i)),
              ),
            ),
          )
        ).flat();
        const { looked, other } = tally(answers);
        expect(other).toBe(0);
        expect(looked).toBeLessThanOrEqual(allowedIn(performance.now() - started));
      } finally {
        await Promise.all(running.splice(0).map((m) => m.close()));
        await redis.stop();
      }
    },
  );
});
