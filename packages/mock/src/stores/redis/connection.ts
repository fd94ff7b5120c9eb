/**
 * The connection to the Redis server of `--state redis://...`, through ioredis (chosen over
 * node-redis: `commandTimeout` bounds every command, `enableOfflineQueue: false` fails a command at
 * once while disconnected instead of serving it late, `autoResendUnfulfilledCommands: false` never
 * sends a charge twice after a reconnect, and it reconnects by itself; six small dependencies). Any
 * failure to reach the server becomes 503 `state_unavailable` with Retry-After: never a call served
 * free, nor a failure of the mock.
 */
import { createHash } from 'node:crypto';
import { Redis, ReplyError } from 'ioredis';
import { ProblemError } from '@investor-graph/engine/adapter';
import { scripts, type ScriptName } from './scripts.ts';
import { RedisStateError, type RedisTarget } from './url.ts';

/** Server replies that mean "not now" (loading, out of memory, disk failing, a replica), not a bug of the mock. */
const UNAVAILABLE_REPLY = /^(LOADING|MISCONF|OOM|BUSY|READONLY|MASTERDOWN|TRYAGAIN|NOREPLICAS|CLUSTERDOWN)\b/;

/** ioredis's error for a command refused before it was written (disconnected, with the offline queue off). */
const NOT_SENT = /enableOfflineQueue/;

/** ioredis's own errors for a server not reached or not answering, besides a socket's errno (ECONNREFUSED...). */
const NOT_REACHED = new RegExp(
  `^(${[
    'Command timed out',
    'Connection is closed',
    "Stream isn't writeable",
    'Reached the max retries',
    'connect ETIMEDOUT',
    'Socket closed',
  ].join('|')})`,
);

/**
 * Whether an error means the server was not reached or did not answer (the call may or may not
 * have run); anything else (a bug of the mock's, a script's error) stays what it is: a 500.
 */
function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof ReplyError) return UNAVAILABLE_REPLY.test(error.message);
  const code = (error as NodeJS.ErrnoException).code;
  return (
    NOT_REACHED.test(error.message) ||
    error.name === 'MaxRetriesPerRequestError' ||
    (typeof code === 'string' && /^E[A-Z]+$/.test(code))
  );
}

function unavailable(shown: string): ProblemError {
  return new ProblemError(
    'state_unavailable',
    `The mock's state store (${shown}) did not answer in time; nothing was served or counted. Retry shortly.`,
    { headers: { 'retry-after': '1' } },
  );
}

/**
 * What a watcher of the state store's health (the mock's metrics, operate/) is told: each command
 * with its time (a script by name, else `command`), each error by kind, each reconnect. Never a
 * key, an argument or a reply.
 */
export interface RedisWatcher {
  command(name: string, seconds: number): void;
  /** `unavailable` (not reached, no answer in time), `command` (any other failure), `connection` (the client's). */
  error(kind: 'unavailable' | 'command' | 'connection'): void;
  reconnect(): void;
}

/**
 * Watchers by the server's location as shown (`target.shown`, as the key store's describe() says
 * it): open.ts makes the connection, so a mock's metrics find it by where it is. Two mocks of one
 * process on one server watch both their connections.
 */
const watchers = new Map<string, Set<RedisWatcher>>();

/** Tells `watcher` of every connection to `location`, until the function returned is called. */
export function watchRedis(location: string, watcher: RedisWatcher): () => void {
  const set = watchers.get(location) ?? new Set();
  watchers.set(location, set.add(watcher));
  return () => void (set.delete(watcher) && set.size === 0 && watchers.delete(location));
}

/** A connected client and the scripts run on it. */
export class RedisConnection {
  readonly client: Redis;
  readonly target: RedisTarget;
  private readonly sha = new Map<ScriptName, string>();
  /** What the connection last failed with (a refused connection, a wrong password): said when the start gives up. */
  private lastError = '';

  constructor(target: RedisTarget) {
    this.target = target;
    for (const [name, lua] of Object.entries(scripts))
      this.sha.set(name as ScriptName, createHash('sha1').update(lua).digest('hex'));
    this.client = new Redis(target.url, {
      lazyConnect: true,
      connectionName: 'investor-graph-mock',
      commandTimeout: target.timeoutMs,
      connectTimeout: Math.max(target.timeoutMs, 2000),
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
      enableAutoPipelining: true,
      // Reconnects for ever, a little slower each time up to once a second.
      retryStrategy: (times) => Math.min(50 * times, 1000),
    });
    // Reported by the calls that meet it (503), by describe() and at start; an unhandled 'error' would end the process.
    this.client.on('error', (error: Error) => {
      this.lastError = error.message;
      this.tell((w) => w.error('connection'));
    });
    // Ready again after the first time: the server was lost and is back.
    let readyBefore = false;
    this.client.on('ready', () => (readyBefore ? this.tell((w) => w.reconnect()) : (readyBefore = true)));
  }

  private tell(event: (watcher: RedisWatcher) => void): void {
    for (const watcher of watchers.get(this.target.shown) ?? []) event(watcher);
  }

  /** Tells the watchers a command's time, and its failure's kind. */
  private timed(name: string, started: number, error?: unknown): void {
    const seconds = (performance.now() - started) / 1000;
    this.tell((w) => {
      w.command(name, seconds);
      if (error !== undefined) w.error(isUnavailable(error) ? 'unavailable' : 'command');
    });
  }

  get reachable(): boolean {
    return this.client.status === 'ready';
  }

  /**
   * Connects, waiting up to `waitMs` for the server (a replica
   * may start before it); throws a one-line reason past that.
   */
  async connect(waitMs: number): Promise<void> {
    const until = Date.now() + waitMs;
    void this.client.connect().catch(() => undefined);
    while (!this.reachable) {
      if (Date.now() > until) {
        this.client.disconnect();
        const why = this.lastError ? ` (${this.lastError.replace(/\s+/g, ' ').slice(0, 200)})` : '';
        throw new RedisStateError(
          `--state ${this.target.shown}: no Redis server answered there in ${Math.round(waitMs / 1000)} s${why}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * Runs a script (by its SHA, loading it once when the server does not have it yet); a server not
   * reached is 503. `uncertain` is told when the script was sent but its answer never came, so it
   * may have run (not when it was never sent: disconnected, nothing queued).
   */
  async run<T>(name: ScriptName, keys: string[], args: (string | number)[], uncertain?: () => void): Promise<T> {
    const started = performance.now();
    try {
      let result: T;
      try {
        result = (await this.client.evalsha(this.sha.get(name)!, keys.length, ...keys, ...args)) as T;
      } catch (error) {
        if (!(error instanceof ReplyError) || !(error as Error).message.startsWith('NOSCRIPT')) throw error;
        result = (await this.client.eval(scripts[name], keys.length, ...keys, ...args)) as T;
      }
      this.timed(name, started);
      return result;
    } catch (error) {
      this.timed(name, started, error);
      if (!isUnavailable(error)) throw error;
      if (!NOT_SENT.test((error as Error).message)) uncertain?.();
      throw unavailable(this.target.shown);
    }
  }

  /** A plain command, failures mapped as `run`'s. */
  async call<T>(command: (client: Redis) => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      const result = await command(this.client);
      this.timed('command', started);
      return result;
    } catch (error) {
      this.timed('command', started, error);
      throw isUnavailable(error) ? unavailable(this.target.shown) : error;
    }
  }

  async close(): Promise<void> {
    if (this.client.status === 'ready') await this.client.quit().catch(() => undefined);
    this.client.disconnect();
  }
}
