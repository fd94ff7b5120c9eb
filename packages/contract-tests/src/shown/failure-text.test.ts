// @module-tag servers
import { createServer } from 'node:http';
import { expect, test } from 'vitest';
import { prepare } from '../core/context.ts';
import { answerShown, expectedGot, hideKey, valueShown } from './failure-text.ts';

test("a body echoing the run's key, of any form, shows <key> in its place, and so does any bearer credential", () => {
  const own = 'acme-live-7f3c9a1e5b2d4f60';
  hideKey(own);
  const echoed = JSON.stringify({
    detail: `bad key ${own}`,
    headers: { authorization: 'Bearer sk_other_123' },
    seen: 'igk_team_qSzopJ4daGBI9QyQJ7jnIJ4LajkBK8Nd',
  });
  const shown = [
    answerShown({ status: 400, text: echoed }),
    valueShown(JSON.parse(echoed)),
    expectedGot('GET /x', 'a 200', `debug page ${own}`),
  ].join('\n');
  expect(shown).not.toMatch(/acme-live|sk_other|igk_team_q/);
  expect(answerShown({ status: 400, text: echoed })).toContain('"detail":"bad key <key>"');
  expect(shown).toContain('Bearer <key>');
});

test('a raw body is decoded if it says it is JSON, else counted, never said to be none (regression: "no body")', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const problem = {
    status: 404,
    text: '',
    bytes: bytes('{"code":"not_found"}'),
    headers: new Headers({ 'content-type': 'application/problem+json' }),
  };
  expect(answerShown(problem)).toBe('404 {"code":"not_found"}');
  const gzip = {
    status: 404,
    text: '',
    bytes: new Uint8Array([0x1f, 0x8b, 8, 0]),
    headers: new Headers({ 'content-type': 'application/gzip' }),
  };
  expect(answerShown(gzip)).toBe('404 with a body of 4 bytes (application/gzip)');
  expect(answerShown({ status: 404, text: '', bytes: new Uint8Array() })).toBe('404 with no body');
});

test('a trial-key answer that is no 201 but carries a key never shows it (regression: printed whole)', async () => {
  // Of the service's own form: no look of a key would find it.
  const key = 'trial-ZZZZ-qSzop-J4daG';
  const server = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ key, note: 'created' })),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    const failed = await prepare({
      baseUrl: `http://127.0.0.1:${port}`,
      email: 'ci@example.com',
      plan: 'trial',
      budget: { calls: 5, rows: 10 },
      seed: 1,
      runs: 1,
    }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(failed).toContain(
      `expected 201 with a key, got 200 {"key":"<a key of ${key.length} characters>","note":"created"}`,
    );
    expect(failed).not.toContain('ZZZZ');
  } finally {
    server.close();
  }
});

test('a served name holding a bidirectional control is shown escaped: it cannot reorder the failure around it', () => {
  expect(expectedGot('GET /api/v1/firms/a\u202egpj', 'a 200', 'slug "a\u202egpj"')).toBe(
    'GET /api/v1/firms/a\\u202egpj: expected a 200, got slug "a\\u202egpj"',
  );
  expect(answerShown({ status: 200, text: '{"slug":"\u2067x\u2069"}' })).toBe('200 {"slug":"\\u2067x\\u2069"}');
  expect(valueShown('\u202bx')).toBe('"\\u202bx"');
});
