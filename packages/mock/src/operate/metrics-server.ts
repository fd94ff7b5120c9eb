/**
 * `--metrics-port`: the metrics on a port of their own, for a Prometheus on another host, without
 * opening the control API to it. It answers `GET /metrics` (and the two probes) and nothing else;
 * what it shows is what `/__control/metrics` shows: counts under bounded labels, never a key.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockMetrics } from './metrics.ts';

/** Listens on `host:port` and resolves with the server and its base URL. */
export async function serveMetrics(
  metrics: MockMetrics,
  port: number,
  host: string,
  ready: () => Promise<string | null>,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD' }).end();
    if (path === '/metrics')
      return void metrics.scrape().then(
        ({ contentType, text }) => res.writeHead(200, { 'content-type': contentType }).end(text),
        () => res.writeHead(500).end(),
      );
    if (path === '/healthz') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('alive\n');
    if (path === '/readyz')
      return void ready().then((reason) =>
        res.writeHead(reason === null ? 200 : 503, { 'content-type': 'text/plain' }).end(`${reason ?? 'ready'}\n`),
      );
    res.writeHead(404, { 'content-type': 'text/plain' }).end('GET /metrics\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { server, url: `http://${shown}:${address.port}` };
}
