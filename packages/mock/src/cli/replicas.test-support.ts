/**
 * Three mock processes (the real CLI) behind haproxy round robin, on one Redis or each on its own
 * state: the harness of the tests of a shared staging service (stores/redis/*-replicas.test.ts).
 */
import {
  missing,
  startHaproxy,
  startRedis,
  type Balancer,
  type RedisServer,
} from '../stores/redis/servers.test-support.ts';
import { killAll, startWith, stop } from './cli-process.test-support.ts';

export type Replica = Awaited<ReturnType<typeof startWith>>;

export interface ReplicaSet {
  /** The shared Redis; absent for replicas that each keep their own state. */
  redis?: RedisServer;
  replicas: Replica[];
  balancer: Balancer;
  /** Stops the balancer, the replicas and Redis (the replicas before Redis, so none sees it go). */
  close(): Promise<void>;
}

/** Why the replica tests cannot run here (a Debian package missing), or null. */
export const replicasMissing = (): string | null => missing('redis-server') ?? missing('haproxy');

/**
 * Redis, three replicas on it given `args` (after `--state`), and haproxy in front. `shared: false`
 * starts no Redis: each replica keeps its own state. `firstFromEnv` gives the first its state as
 * deploy/ does, in INVESTOR_GRAPH_MOCK_STATE, off the command line.
 */
export async function startReplicaSet(
  args: readonly string[] = [],
  { shared = true, firstFromEnv = false } = {},
): Promise<ReplicaSet> {
  const redis = shared ? await startRedis() : undefined;
  const state = redis ? ['--state', redis.url] : [];
  const replicas = await Promise.all(
    [1, 2, 3].map((n) =>
      redis && firstFromEnv && n === 1
        ? startWith({ INVESTOR_GRAPH_MOCK_STATE: redis.url }, ...args)
        : startWith({}, ...state, ...args),
    ),
  );
  const balancer = await startHaproxy(replicas.map((r) => r.url.replace('http://', '')));
  return {
    ...(redis ? { redis } : {}),
    replicas,
    balancer,
    close: async () => {
      await balancer.close();
      await Promise.all(replicas.map((r) => stop(r.child)));
      killAll();
      await redis?.close();
    },
  };
}
