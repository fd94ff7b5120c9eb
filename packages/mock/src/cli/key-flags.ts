/** Keys given at start: `--key PLAN=KEY` read, and a preset key as the engine takes it. */
import { isPlanId, planIds, type PlanId } from '@investor-graph/contract';
import { presetPrepaidRows } from '@investor-graph/engine/adapter';
import type { PresetKey } from '@investor-graph/engine/adapter';

export function parseKeyFlag(flag: string): PresetKey {
  const m = /^([a-z]+)=([\x21-\x7e]{8,200})$/.exec(flag);
  if (!m || !isPlanId(m[1]))
    throw new Error(
      `--key takes PLAN=KEY with PLAN one of ${planIds.join(', ')} and a key of 8+ printable characters; got "${flag}"`,
    );
  return presetKey(m[1], m[2]!);
}

/** A key given at start, a pay-as-you-go one with presetPrepaidRows on it. */
export function presetKey(plan: PlanId, key: string): PresetKey {
  return { plan, key, ...(plan === 'payg' ? { prepaidRows: presetPrepaidRows } : {}) };
}
