/**
 * What the model is told through its control API, in step with the service (issue #65): the keys
 * the run holds (each service key, and each service key_id, with the model's), their usage as the
 * service counts it, and what the run's control calls (--use-control) do to keys and the clock.
 */
import type { PlanId } from '@investor-graph/contract';
import type { ControlClient } from '@investor-graph/engine';

export class MirroredControl {
  private readonly control: ControlClient;
  /** The keys the model was told of, each with its key_id in the model. */
  private readonly keys = new Map<string, string>();
  /** The service's key ids, each with the model's for the same key (own-keys.ts pairs the account's keys by them). */
  readonly keyIds = new Map<string, string>();

  constructor(control: ControlClient) {
    this.control = control;
  }

  /** Whether the model was told of this key. */
  knows(key: string): boolean {
    return this.keys.has(key);
  }

  /** A key the service knows, told to the model with its plan, usage and balance (from an account answer). */
  async addKey(plan: PlanId, key: string, account?: unknown): Promise<void> {
    if (this.keys.has(key)) return;
    const data = (account as { data?: { usage?: { calls_used?: unknown }; balance?: unknown } } | null)?.data;
    const prepaid = (data?.balance as { prepaid_rows?: unknown } | null)?.prepaid_rows;
    const made = await this.control.createKey({
      plan,
      key,
      ...(typeof prepaid === 'number' && prepaid > 0 ? { prepaid_rows: prepaid } : {}),
    });
    this.keys.set(key, made.key_id);
    // As a service may send it: no list, or members of another shape.
    const listed = (data as { keys?: unknown } | undefined)?.keys;
    const keys = (Array.isArray(listed) ? listed : []) as ({ key_id?: unknown; last4?: unknown } | null)[];
    const own = keys.find((k) => k?.last4 === key.slice(-4))?.key_id;
    if (typeof own === 'string') this.keyIds.set(own, made.key_id);
    await this.syncUsage(key, data?.usage?.calls_used);
  }

  /** The model's count of a key's calls set to the service's: each call's move is judged from there. */
  async syncUsage(key: string, callsUsed: unknown): Promise<boolean> {
    const keyId = this.keys.get(key);
    if (keyId === undefined || typeof callsUsed !== 'number' || callsUsed < 0) return false;
    return this.control.setUsage(keyId, callsUsed).then(
      () => true,
      () => false,
    );
  }

  /** A trial the service issued (its 201's body): told to the model as a key of its own. */
  async learnTrial(body: unknown): Promise<void> {
    const { key, key_id: keyId } = (body ?? {}) as { key?: unknown; key_id?: unknown };
    if (typeof key !== 'string') return;
    await this.addKey('trial', key);
    if (typeof keyId === 'string') this.keyIds.set(keyId, this.keys.get(key)!);
  }

  /** A call of the service's control API made of the model too: keys, usage, revocation, top-ups, the clock. */
  async mirror(method: string, path: string, body: unknown, answer: unknown): Promise<void> {
    const asked = (body ?? {}) as Record<string, unknown>;
    const made = answer as { key?: unknown; key_id?: unknown; plan?: unknown } | null;
    const id = /\/keys\/(key_[0-9a-f]+)/.exec(path)?.[1];
    const modelId = id === undefined ? undefined : this.keyIds.get(id);
    if (method === 'POST' && path === '/keys' && typeof made?.key === 'string' && typeof made.key_id === 'string') {
      const mirrored = await this.control.createKey({ ...asked, key: made.key } as Parameters<
        ControlClient['createKey']
      >[0]);
      this.keys.set(made.key, mirrored.key_id);
      this.keyIds.set(made.key_id, mirrored.key_id);
    } else if (modelId !== undefined && method === 'PUT' && path.endsWith('/usage'))
      await this.control.setUsage(modelId, asked.calls_used as number);
    else if (modelId !== undefined && path.endsWith('/revoke')) await this.control.revokeKey(modelId);
    else if (modelId !== undefined && path.endsWith('/top-up')) await this.control.topUp(modelId, asked.rows as number);
    else if (path === '/clock' && method === 'PUT') await this.control.setClock(asked);
    // The service's clock as its control API says it: the model's too (never back: it cannot go there).
    else if (path === '/clock' && method === 'GET' && typeof (answer as { now?: unknown } | null)?.now === 'string')
      await this.control.setClock({ now: (answer as { now: string }).now }).catch(() => undefined);
    else if (path === '/clock/advance')
      await this.control.advanceClock(asked as Parameters<ControlClient['advanceClock']>[0]);
  }
}
