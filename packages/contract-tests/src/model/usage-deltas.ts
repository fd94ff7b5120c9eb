/**
 * Usage and balance as the model judges them: not their values, which other clients of the same key
 * move (DECISIONS.md#model-comparison), but how much each call moved them, the service's against
 * the model's, between two answers of one key with no other call of it on the way.
 */
import type { Difference } from './compare.ts';

type Counters = Record<string, number>;

/** The numbers an answer says of its key's usage and balance: the envelope's `usage`, or the account's. */
function countersOf(body: unknown): Counters | null {
  const of = body as { usage?: unknown; data?: { usage?: unknown; balance?: unknown } } | null;
  const usage = of?.usage ?? of?.data?.usage;
  if (usage === null || typeof usage !== 'object') return null;
  const out: Counters = {};
  for (const [name, value] of Object.entries(usage)) if (typeof value === 'number') out[`usage/${name}`] = value;
  const balance = of?.data?.balance as Record<string, unknown> | null | undefined;
  for (const [name, value] of Object.entries(balance ?? {}))
    if (typeof value === 'number') out[`balance/${name}`] = value;
  return out;
}

export class UsageDeltas {
  private readonly last = new Map<string, { service: Counters; model: Counters }>();

  /**
   * The model's count was set to the service's: both move from `callsUsed` from here; after a call
   * not judged (`judged` false), the next answer starts the comparison afresh.
   */
  resynced(key: string, judged: boolean): void {
    const last = this.last.get(key);
    if (!judged) this.last.delete(key);
    // What the count is made of (calls_used, calls_remaining) is the service's now on both sides.
    else if (last)
      for (const name of Object.keys(last.service))
        if (name.startsWith('usage/calls')) last.model[name] = last.service[name]!;
  }

  /** The moves of this answer's counters that differ from the model's; none for a first answer or after overlap. */
  judge(key: string, overlapped: boolean, service: unknown, model: unknown): Difference[] {
    const now = { service: countersOf(service), model: countersOf(model) };
    if (!now.service || !now.model) return [];
    const before = this.last.get(key);
    this.last.set(key, { service: now.service, model: now.model });
    if (!before || overlapped) return [];
    const out: Difference[] = [];
    for (const [name, value] of Object.entries(now.service)) {
      const modelValue = now.model[name];
      const was = { service: before.service[name], model: before.model[name] };
      if (modelValue === undefined || was.service === undefined || was.model === undefined) continue;
      // What the call cost is the call's own (DECISIONS.md#pay-as-you-go-billing), not a running count.
      if (name === 'usage/rows_charged') {
        if (value !== modelValue) out.push({ pointer: `/${name}`, service: value, model: modelValue });
        continue;
      }
      const moved = { service: value - was.service, model: modelValue - was.model };
      if (moved.service !== moved.model)
        out.push({ pointer: `/${name} (moved by)`, service: moved.service, model: moved.model });
    }
    return out;
  }
}
