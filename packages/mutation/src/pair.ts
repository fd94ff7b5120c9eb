/**
 * One proxy and mock pair in a process of its own (forked by the harness with an IPC channel): a
 * fresh mock of the embedded dataset behind the mutating proxy with one mutant, or none. It says
 * `{ url }` once both listen; told `stop`, it answers with the proxy's counts and exits.
 */
import { startMock } from '@investor-graph/mock/node';
import type { PlanId } from '@investor-graph/contract';
import { startMutatingProxy, type ProxyCounts } from './proxy.ts';
import { mutatorFor, type MutantSpec } from './operators.ts';

export interface PairStart {
  mutant: MutantSpec | null;
  keys: Partial<Record<PlanId, string>>;
}

export type PairMessage = { url: string } | { counts: ProxyCounts } | { error: string };

/** Starts a pair in this process; what the forked process and the harness's own sampling both use. */
export async function startPair(start: PairStart) {
  const proxy = await startMutatingProxy({ mutate: start.mutant ? mutatorFor(start.mutant) : undefined });
  const mock = await startMock({
    port: 0,
    keys: Object.entries(start.keys).map(([plan, key]) => ({
      plan: plan as PlanId,
      key,
      ...(plan === 'payg' ? { prepaidRows: 100_000 } : {}),
    })),
    // Links the mock writes (dump files) point at the proxy, so they are mutated and counted too.
    publicUrl: proxy.url,
    log: () => {},
  });
  proxy.setUpstream(Number(new URL(mock.url).port));
  return {
    url: proxy.url,
    counts: proxy.counts,
    async close() {
      await proxy.close();
      await mock.close();
    },
  };
}

if (process.send && process.argv[2] === '--pair') {
  const send = (m: PairMessage) => process.send!(m);
  // The handlers' promises are their own: each catches or exits, so nothing waits on them.
  const serve = async (start: PairStart) => {
    try {
      const pair = await startPair(start);
      const stop = async (m: unknown) => {
        if (m !== 'stop') return;
        send({ counts: pair.counts });
        await pair.close();
        process.disconnect();
        process.exit(0);
      };
      process.on('message', (m: unknown) => void stop(m));
      send({ url: pair.url });
    } catch (error) {
      send({ error: error instanceof Error ? error.message : String(error) });
      process.exit(1);
    }
  };
  process.once('message', (start: PairStart) => void serve(start));
}
