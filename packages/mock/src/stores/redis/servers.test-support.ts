/**
 * Real servers for the Redis tests, each started by the test on a free loopback port in a folder of
 * its own and stopped by it: Debian's `redis-server` (and `haproxy` for the replicas), which
 * `.ci/run` installs. Where one is not there, `missing` says why, for the test to skip saying so.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisServerArgs } from '@investor-graph/test-support/redis';

const has = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/** Why the tests needing `command` cannot run here, or null. */
export const missing = (command: 'redis-server' | 'haproxy'): string | null =>
  has(command)
    ? null
    : `${command} is not installed (Debian's ` +
      `${command === 'haproxy' ? 'haproxy' : 'redis-server'} package; .ci/run installs it)`;

/** A port free on loopback now (the kernel's pick, released for the server to take). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something answers on the port (or rejects after `ms`). */
async function listening(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listened on 127.0.0.1:${port} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );
}

export interface RedisServer {
  url: string;
  port: number;
  /** Stops it as an operator would (SIGTERM: it writes what it holds and exits). */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder: what it kept (append-only file) comes back. */
  start(): Promise<void>;
  /** Freezes it (SIGSTOP): connected, never answering, as a server under a long pause. */
  pause(): void;
  resume(): void;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/** A Redis server of its own: loopback only, every write in its append-only file before it answers. */
export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'ig-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const run = async (): Promise<void> => {
    child = spawn('redis-server', redisServerArgs(port, dir, 'always'), { stdio: 'ignore' });
    await listening(port, 10_000);
  };
  await run();
  const stop = async (): Promise<void> => {
    if (!child) return;
    const ending = exited(child);
    child.kill('SIGTERM');
    await ending;
    child = undefined;
  };
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    stop,
    start: run,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    close: async () => {
      child?.kill('SIGCONT');
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Balancer {
  url: string;
  close(): Promise<void>;
}

/**
 * haproxy in front of `backends` (host:port), round robin, each checked by a TCP connect every
 * 200 ms so a killed one is out within a fraction of a second; a request that cannot reach one is
 * sent to another (redispatch), as a production balancer is set up.
 */
export async function startHaproxy(backends: string[]): Promise<Balancer> {
  const dir = mkdtempSync(join(tmpdir(), 'ig-haproxy-'));
  const port = await freePort();
  const config = [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  retries 2',
    '  option redispatch',
    'frontend api',
    `  bind 127.0.0.1:${port}`,
    '  default_backend mocks',
    'backend mocks',
    '  balance roundrobin',
    ...backends.map((b, i) => `  server mock${i + 1} ${b} check inter 200 fall 1 rise 2`),
    '',
  ].join('\n');
  writeFileSync(join(dir, 'haproxy.cfg'), config);
  const child = spawn('haproxy', ['-f', join(dir, 'haproxy.cfg'), '-db'], { stdio: 'ignore' });
  await listening(port, 10_000);
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      const ending = exited(child);
      child.kill('SIGTERM');
      await ending;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Everything the Redis server at `url` holds, in every database, as text: each key's name, type
 * and whole value (what `redis-cli --scan` and a dump of each key would show), for a test to look
 * for what must never be there.
 */
export async function everythingHeld(url: string): Promise<string> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  await client.connect();
  try {
    const out: string[] = [];
    const databases = Number((await client.config('GET', 'databases'))[1] ?? 16);
    for (let db = 0; db < databases; db++) {
      await client.select(db);
      for await (const keys of client.scanStream({ count: 1000 }) as AsyncIterable<string[]>)
        for (const key of keys) out.push(`${db} ${key}: ${await valueOf(client, key)}`);
    }
    return out.join('\n');
  } finally {
    client.disconnect();
  }
}

async function valueOf(client: import('ioredis').Redis, key: string): Promise<string> {
  const type = await client.type(key);
  const value =
    type === 'string'
      ? await client.get(key)
      : type === 'hash'
        ? await client.hgetall(key)
        : type === 'zset'
          ? await client.zrange(key, '0', '-1', 'WITHSCORES')
          : type === 'list'
            ? await client.lrange(key, 0, -1)
            : type === 'set'
              ? await client.smembers(key)
              : type === 'stream'
                ? await client.xrange(key, '-', '+')
                : `(a ${type}, not read)`;
  return `${type} ${JSON.stringify(value)}`;
}
