import { expect, test } from 'vitest';
import type { Answer, Pieces } from '../answer.ts';
import type { Handler } from '../wrapper.ts';
import { onHeaders, onJson, onRows } from './fault.ts';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const answering =
  (answer: Answer): Handler =>
  () =>
    Promise.resolve(answer);
const json = (body: Answer['body'], extra: Partial<Answer> = {}): Answer => ({
  status: 200,
  headers: { 'content-type': 'application/json', 'content-length': '19', 'x-request-id': 'req_1' },
  body,
  ...extra,
});
const get = (path = '/api/v1/firms'): Request => new Request(`http://localhost${path}`);
const addRow = onRows((rows) => void rows.push({ slug: 'added' }));

test('onJson reads a JSON body of text, bytes or pieces, and answers its edit as text without a length', async () => {
  const text = '{"data":[{"slug":"a"}]}';
  const half = bytes(text.slice(0, 9));
  const rest = bytes(text.slice(9));
  for (const body of [text, bytes(text), [half, rest] as Pieces]) {
    const answer = await addRow(answering(json(body)), {})(get());
    expect(answer).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' },
      body: '{"data":[{"slug":"a"},{"slug":"added"}]}',
    });
  }
});

test("onJson leaves a HEAD's, a 304's and a file's answer as it came (the same record)", async () => {
  const file = { status: 200, headers: { 'content-type': 'application/gzip' }, body: new Blob(['gz']) };
  const unread = await addRow(answering(file), {})(get('/api/v1/exports/2026-01-01/firms.jsonl.gz'));
  expect(unread).toBe(file);
  const head = json(null);
  expect(await addRow(answering(head), {})(new Request('http://localhost/api/v1/firms', { method: 'HEAD' }))).toBe(
    head,
  );
  const notModified = json(null, { status: 304 });
  expect(await addRow(answering(notModified), {})(get())).toBe(notModified);
});

test('an edited answer keeps the delivery an incident gave it (slow); a refetched one takes the new one', async () => {
  const slow = json('{"data":[]}', { delivery: { bytesPerSecond: 100 } });
  expect((await addRow(answering(slow), {})(get())).delivery).toEqual({ bytesPerSecond: 100 });
  const refetch = onJson((a) => a.refetch(get('/again')));
  const twice: Handler = (request) => Promise.resolve(request.url.endsWith('/again') ? json('{"again":true}') : slow);
  const answer = await refetch(twice, {})(get());
  expect(answer.delivery).toBeUndefined();
  expect(answer.body).toBe('{"again":true}');
});

test('answerWith answers the problem of the table, with the request id the answer carried', async () => {
  const refused = onJson((a) => a.answerWith('not_found', 'No such thing.'));
  const answer = await refused(answering(json('{"data":[]}')), {})(get());
  expect(answer.status).toBe(404);
  expect(answer.headers['content-type']).toBe('application/problem+json');
  expect(JSON.parse(answer.body as string)).toMatchObject({ status: 404, code: 'not_found', request_id: 'req_1' });
});

test("onHeaders edits the headers and passes the body on as it is: a file's Blob unread, pieces unjoined", async () => {
  const pieces: Pieces = [bytes('{"a":'), bytes('1}')];
  const dropId = onHeaders((h) => h.delete('x-request-id'));
  for (const body of [new Blob(['gz']), pieces, null]) {
    const came = json(body, { delivery: { cut: true } });
    const answer = await dropId(answering(came), {})(get());
    expect(answer.body).toBe(body);
    expect(answer.delivery).toEqual({ cut: true });
    expect(answer.headers).toEqual({ 'content-type': 'application/json', 'content-length': '19' });
  }
});
