import { expect, test } from 'vitest';
import type { Answer } from './answer.ts';
import { compose, type Handler, type Wrapper } from './wrapper.ts';

const said = (text: string): Answer => ({ status: 200, headers: {}, body: text });
const tag =
  (name: string): Wrapper =>
  (next) =>
  async (request, context) => {
    const answer = await next(request, context);
    return said(`${name}(${answer.body as string})`);
  };
const steps: Handler = async () => said('steps');

test('wrappers compose as hono composes middleware: the first listed is the outermost', async () => {
  const answer = await compose([tag('docs'), tag('faults'), tag('journal')], steps)(new Request('http://x/'));
  expect(answer.body).toBe('docs(faults(journal(steps)))');
});

test('a wrapper answers a call itself without the ones inside it (the control plane, the docs page)', async () => {
  const own: Wrapper = (next) => async (request, context) =>
    new URL(request.url).pathname === '/docs' ? said('page') : next(request, context);
  const handler = compose([own, tag('journal')], steps);
  expect((await handler(new Request('http://x/docs'))).body).toBe('page');
  expect((await handler(new Request('http://x/api'))).body).toBe('journal(steps)');
});

test('no wrappers: the handler itself', async () => {
  expect((await compose([], steps)(new Request('http://x/'))).body).toBe('steps');
});
