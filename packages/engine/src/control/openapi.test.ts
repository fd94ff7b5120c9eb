/**
 * The control API's OpenAPI document, held to itself through prism-http, and the control client's
 * own promises that need no mock: its types are the document's, a refused call is a `ControlError`
 * that shows no secret, a call the document does not describe fails a test that validates with it.
 */
import { expect, expectTypeOf, test } from 'vitest';
import type { JournalEntry } from '../journal/journal.ts';
import type { Verification } from '../journal/verify.ts';
import { ControlError, createControlClient, type ControlFetch } from './client.ts';
import { controlValidator, validatingFetch } from './control-validator.test-support.ts';
import { controlDocument } from './document.ts';
import type { components } from './generated/api.ts';

type Media = { examples?: Record<string, { value: unknown }> };
type Operation = {
  operationId: string;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { $ref?: string; content?: Record<string, Media>; headers?: Record<string, unknown> }>;
};

const resolve = <T>(node: T & { $ref?: string }): T =>
  node.$ref
    ? (node.$ref
        .slice(2)
        .split('/')
        .reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], controlDocument) as T)
    : node;

test('every example of the control document validates against its own operation, requests and answers', () => {
  const failures: string[] = [];
  let examples = 0;
  for (const [template, item] of Object.entries(controlDocument.paths)) {
    const path = template.replace('{key_id}', 'key_8bdf1b6d9bcc').replace('{id}', 'inc_0123456789ab');
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      for (const [name, { value }] of Object.entries(op.requestBody?.content['application/json']?.examples ?? {})) {
        examples++;
        const request = { method, path, headers: { 'content-type': 'application/json' }, body: value };
        for (const v of controlValidator.validateRequest(op.operationId, request))
          failures.push(`${op.operationId} request ${name}: ${v.path} ${v.message}`);
      }
      for (const [status, ref] of Object.entries(op.responses)) {
        const response = resolve(ref);
        for (const [type, media] of Object.entries(response.content ?? {})) {
          expect(Object.keys(media.examples ?? {}), `${op.operationId} ${status} has an example`).not.toEqual([]);
          for (const [name, { value }] of Object.entries(media.examples ?? {})) {
            examples++;
            const headers = {
              'content-type': type,
              ...(response.headers?.['Retry-After'] ? { 'retry-after': '12' } : {}),
            };
            const answer = { status: Number(status), headers, body: value };
            for (const v of controlValidator.validateResponse(op.operationId, answer))
              failures.push(`${op.operationId} ${status} ${name}: ${v.path} ${v.message}`);
          }
        }
      }
    }
  }
  expect(failures).toEqual([]);
  expect(examples).toBeGreaterThan(40);
});

/** A transport that answers every call with `body` (JSON), as a broken mock would. */
const answering =
  (status: number, body: unknown, type = 'application/json'): ControlFetch =>
  async () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });

test('a call the document does not describe fails the test that validates against it', async () => {
  const findings: string[] = [];
  const transport = validatingFetch(answering(200, {}), findings);
  await expect(transport('http://127.0.0.1:4010/__control/nothing', { method: 'GET' })).rejects.toThrow(
    'GET /__control/nothing is no operation of the control API',
  );
  await expect(transport('http://127.0.0.1:4010/__control/clock', { method: 'DELETE' })).rejects.toThrow(
    'no operation',
  );
});

test('the validator finds an answer off the document and a request off it', async () => {
  const findings: string[] = [];
  const wrong = createControlClient({
    baseUrl: 'http://127.0.0.1:4010',
    fetch: validatingFetch(answering(200, { now: '2026-11-20T03:00:00Z', frozen: 'yes' }), findings),
  });
  await wrong.clock();
  expect(findings).toEqual([expect.stringMatching(/^GET \/__control\/clock answer body\.frozen: .*boolean/)]);
  findings.length = 0;
  await wrong.setUsage('key_8bdf1b6d9bcc', -1).catch(() => undefined);
  expect(findings).toContainEqual(expect.stringMatching(/^PUT .*\/usage request body\.calls_used: .*>= 0/));
});

/** true when each type is assignable to the other; tsc fails the file on a `true` given where it is false. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

test("the client's types are the document's, and the journal's are the engine's", () => {
  type Schemas = components['schemas'];
  const entry: Same<Schemas['JournalEntry'], JournalEntry> = true;
  const verification: Same<Schemas['Verification'], Verification> = true;
  expect([entry, verification]).toEqual([true, true]);
  expectTypeOf<ReturnType<ReturnType<typeof createControlClient>['state']>>().resolves.toEqualTypeOf<
    Schemas['State']
  >();
});

test('a refused call throws a ControlError with the problem, and no admin token or key in it', async () => {
  const token = 'an-admin-token-0123456789';
  const echoed = `No key igk_team_${'a'.repeat(32)} or ${token} here`;
  const problem = { status: 400, code: 'invalid_body', detail: echoed, request_id: 'req_1', errors: [] };
  const client = createControlClient({
    baseUrl: 'http://127.0.0.1:4010',
    adminToken: token,
    fetch: answering(400, problem, 'application/problem+json'),
  });
  const error = await client.createKey({ plan: 'team', key: 'my-own-key-text-42' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ControlError);
  const refused = error as ControlError;
  expect([refused.status, refused.code, refused.requestId]).toEqual([400, 'invalid_body', 'req_1']);
  expect(refused.message).toMatch(/^\[investor-graph mock\] POST \/__control\/keys: 400 .* \(invalid_body\)$/);
  for (const secret of [token, 'igk_team_aaaa', 'my-own-key-text-42'])
    expect(`${refused.message} ${refused.detail} ${refused.stack}`).not.toContain(secret);
});

test("a key's text where a key_id belongs is refused before anything is sent, and not shown", async () => {
  const sent: string[] = [];
  const client = createControlClient({
    baseUrl: 'http://127.0.0.1:4010',
    fetch: async (url) => (sent.push(url), new Response('{}')),
  });
  const key = `igk_team_${'b'.repeat(32)}`;
  const error = (await client.revokeKey(key).catch((e: unknown) => e)) as Error;
  expect(error).toBeInstanceOf(TypeError);
  expect(error.message).toContain('revokeKey takes a key_id');
  expect(error.message).not.toContain(key);
  expect(sent).toEqual([]);
});
