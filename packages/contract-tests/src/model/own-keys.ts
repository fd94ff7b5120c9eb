/**
 * The keys of an account answer the model can judge (DECISIONS.md#account, #model-comparison):
 * the service's entry of a key the model was told of, beside the model's entry of the same key
 * (paired by key id when it was told), by what says which key it is: its plan, its last four
 * characters and its state. The account's other keys, and every key's id, prefix and dates, are the
 * service's own.
 */
import type { Difference } from './compare.ts';

const judged = ['plan', 'last4', 'status'] as const;

type Entry = Record<string, unknown>;

const keysOf = (body: unknown): Entry[] | null => {
  const keys = (body as { data?: { keys?: unknown } } | null | undefined)?.data?.keys;
  return Array.isArray(keys) ? (keys.filter((k) => typeof k === 'object' && k !== null) as Entry[]) : null;
};

/** What differs between the service's and the model's entry of each key paired in `keyIds` (service id -> model id). */
export function ownKeyDifferences(service: unknown, model: unknown, keyIds: ReadonlyMap<string, string>): Difference[] {
  const [theirs, ours] = [keysOf(service), keysOf(model)];
  if (theirs === null || ours === null) return [];
  const out: Difference[] = [];
  theirs.forEach((entry, index) => {
    const modelId = typeof entry.key_id === 'string' ? keyIds.get(entry.key_id) : undefined;
    const own = modelId === undefined ? undefined : ours.find((k) => k.key_id === modelId);
    if (own === undefined) return;
    for (const member of judged)
      if (!Object.is(entry[member], own[member]))
        out.push({ pointer: `/data/keys/${index}/${member}`, service: entry[member], model: own[member] });
  });
  return out;
}
