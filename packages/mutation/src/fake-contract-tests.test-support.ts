/**
 * A contract tests' command in small, for the harness's own test: it reads one page of firms with
 * the key in INVESTOR_GRAPH_KEY and exits 1 when the page is not two rows with a cursor, 0 when it
 * is, as the real CLI exits on a broken or a held rule; FAKE_EXIT makes it exit as told instead.
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { 'base-url': { type: 'string' }, plan: { type: 'string' }, seed: { type: 'string' } },
});
if (process.env.FAKE_EXIT) process.exit(Number(process.env.FAKE_EXIT));
const response = await fetch(`${values['base-url']}/api/v1/firms?limit=2`, {
  headers: { authorization: `Bearer ${process.env.INVESTOR_GRAPH_KEY}` },
});
const body = (await response.json()) as { data?: unknown[]; next_cursor?: unknown };
const held = response.status === 200 && body.data?.length === 2 && typeof body.next_cursor === 'string';
console.log(held ? 'held' : `broken: ${JSON.stringify(body).slice(0, 200)}`);
process.exit(held ? 0 : 1);
