/**
 * What the Redis figures run on: Debian's redis-server and haproxy, each started on a free loopback
 * port in the bench's temporary folder (as the mock's tests start theirs), or the reason they cannot be.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { redisServerArgs } from '@investor-graph/test-support/redis';

export interface Server {
  url: string;
  stop(): Promise<void>;
}

/** Why the Redis figures cannot be measured here, or null. */
export function redisMissing(): string | null {
  const lacking = ['redis-server', 'haproxy'].filter((c) => spawnSync('sh', ['-c', `command -v ${c}`]).status !== 0);
  return lacking.length ? `${lacking.join(' and ')} not installed (Debian's packages; .ci/run installs them)` : null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function serving(child: ChildProcess, port: number, what: string): Promise<void> {
  const until = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    if (child.exitCode !== null || Date.now() > until) throw new Error(`${what} did not listen on 127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
}

/** A Redis server with the durability the deploy files use (append-only file, fsync every second). */
export async function startRedisServer(dir: string): Promise<Server> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const child = spawn('redis-server', redisServerArgs(port, dir, 'everysec'), { stdio: 'ignore' });
  await serving(child, port, 'redis-server');
  return { url: `redis://127.0.0.1:${port}/0`, stop: stopper(child) };
}

/** haproxy in front of `backends` (URLs), round robin. */
export async function startBalancer(dir: string, backends: string[]): Promise<Server> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const config = [
    'global',
    '  maxconn 4000',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 30s',
    '  timeout server 30s',
    'frontend api',
    `  bind 127.0.0.1:${port}`,
    '  default_backend mocks',
    'backend mocks',
    '  balance roundrobin',
    ...backends.map((b, i) => `  server mock${i + 1} ${b.replace(/^http:\/\//, '')}`),
    '',
  ].join('\n');
  writeFileSync(join(dir, 'haproxy.cfg'), config);
  const child = spawn('haproxy', ['-f', join(dir, 'haproxy.cfg'), '-db'], { stdio: 'ignore' });
  await serving(child, port, 'haproxy');
  return { url: `http://127.0.0.1:${port}`, stop: stopper(child) };
}
