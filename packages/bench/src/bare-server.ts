/**
 * The runtime's limit: a bare node:http server answering precomputed bytes (captured from the
 * mock, so the same sizes and headers) by path. No parsing, no routing beyond a map lookup.
 *   node src/bare-server.ts ANSWERS.json
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}
const answers = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<string, Answer>).map(([path, a]) => [
    path,
    { ...a, bytes: Buffer.from(a.body, 'base64') },
  ]),
);
const missing = Buffer.from('{}');

const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? '');
  if (!answer) {
    res.writeHead(404, { 'content-length': missing.length }).end(missing);
    return;
  }
  res.writeHead(answer.status, { ...answer.headers, 'content-length': answer.bytes.length });
  res.end(answer.bytes);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`bare server on http://127.0.0.1:${port}`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
