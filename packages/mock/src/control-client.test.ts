// @module-tag servers
/**
 * The control client (`@investor-graph/mock/control`) against a mock on a real loopback port: the
 * shared case list (the MSW handlers run the same one in-process), every exchange held to the
 * control API's OpenAPI document, and the admin-token transport a mock reached from elsewhere needs.
 */
import { request } from 'node:http';
import { expect, test } from 'vitest';
import { runControlClientCases } from '@investor-graph/engine/testing';
import { validatingFetch } from '@investor-graph/engine/testing';
import { ControlError, createControlClient, type ControlFetch } from './control.ts';
import { startMock } from './node.ts';

runControlClientCases({
  name: 'the control client over HTTP',
  async setup({ now }) {
    const mock = await startMock({ port: 0, now, frozen: true });
    return {
      baseUrl: mock.url,
      transport: (url, init) => fetch(url, init),
      native: createControlClient({ baseUrl: mock.url }),
      data: (path, key) => fetch(`${mock.url}${path}`, key ? { headers: { authorization: `Bearer ${key}` } } : {}),
      close: () => mock.close(),
    };
  },
});

/**
 * A transport over node:http that names the mock by `host`, as a call from another machine (through
 * a DNS name or a proxy) does; fetch sets the Host itself and lets no caller change it.
 */
function fetchNaming(host: string): ControlFetch {
  return (url, init) =>
    new Promise((resolve, reject) => {
      const headers = { ...Object.fromEntries(new Headers(init.headers)), host };
      const sent = request(new URL(url), { method: init.method ?? 'GET', headers }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', reject);
        answer.on('end', () => {
          const fields = Object.entries(answer.headers).filter((e): e is [string, string] => typeof e[1] === 'string');
          resolve(new Response(Buffer.concat(chunks), { status: answer.statusCode ?? 500, headers: fields }));
        });
      });
      sent.on('error', reject);
      sent.end(typeof init.body === 'string' ? init.body : undefined);
    });
}

test(
  'with the admin token the client drives a mock it names by a non-loopback host; ' +
    'without it, or with a wrong one, it is refused, and the token is in no error',
  async () => {
    const adminToken = 'the-admin-token-of-this-test-0123';
    const mock = await startMock({ port: 0, adminToken, now: '2026-11-20T03:00:00Z', frozen: true });
    try {
      const findings: string[] = [];
      const elsewhere = validatingFetch(fetchNaming('mock.example.com'), findings);
      const admitted = createControlClient({ baseUrl: mock.url, adminToken, fetch: elsewhere });
      expect((await admitted.clock()).now).toBe('2026-11-20T03:00:00.000Z');
      const { key } = await admitted.createKey({ plan: 'team' });

      const refusals: unknown[] = [];
      for (const token of [undefined, 'a-wrong-admin-token-of-this-test']) {
        const client = createControlClient({
          baseUrl: mock.url,
          fetch: elsewhere,
          ...(token ? { adminToken: token } : {}),
        });
        refusals.push(await client.state().catch((error: unknown) => error));
      }
      expect(refusals.map((e) => (e as ControlError).code)).toEqual(['control_forbidden', 'control_forbidden']);
      expect((refusals[0] as ControlError).detail).toContain('does not name this mock');
      expect((refusals[1] as ControlError).detail).toContain('The admin token is wrong');
      for (const error of refusals) {
        expect(error).toBeInstanceOf(ControlError);
        const text = `${(error as Error).message} ${(error as Error).stack}`;
        for (const secret of [adminToken, 'a-wrong-admin-token-of-this-test', key]) expect(text).not.toContain(secret);
      }
      expect(findings).toEqual([]);
    } finally {
      await mock.close();
    }
  },
);

// Issue #68: with no mock running, the client and mockJournal threw a raw `TypeError: fetch failed`
// with a stack inside engine/dist, naming neither the address nor what to check.
test(`the control client and mockJournal with no mock at their URL say which URL they could not reach and what to \
check, in one line`, async () => {
  const { mockJournal } = await import('./node.ts');
  // A port nothing listens on: one taken and let go.
  const mock = await startMock({ port: 0 });
  const url = mock.url;
  await mock.close();
  for (const call of [
    () => createControlClient({ baseUrl: url }).state(),
    () => mockJournal(url).journal(),
    () => mockJournal(url).verify({ operation: 'listFirms' }, 1),
  ]) {
    const error = (await call().catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).not.toMatch(/^fetch failed$/);
    expect(error.message.split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^\\[investor-graph mock\\] cannot reach the mock's control API at ${url}/__control \\(ECONNREFUSED\\): ` +
            'is the mock running there \\(startMock, or npx --no -- investor-graph-mock\\), and is the base URL its ' +
            'origin',
        ),
      ),
    ]);
  }
});
