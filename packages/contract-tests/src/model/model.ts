/**
 * The model of the service under test (issue #65): the kit's own engine, in this process, built on
 * the service's data (model-data.ts), its key's plan, usage and balance taken from the service's
 * first `/account`. Every call the run makes is made of the model too (cursors and tags told in the
 * model's own), the answers compared (compare.ts), what may differ one table (allowed.ts).
 */
import { createContractValidator, type ContractValidator, type PlanId } from '@investor-graph/contract';
import {
  createControlClient,
  createEngine,
  inProcessFetch,
  type ControlClient,
  type Engine,
} from '@investor-graph/engine';
import { compareAnswers, type Difference } from './compare.ts';
import { settled, type ModelData } from './model-data.ts';
import { behaviourOnly } from './allowed.ts';
import { asOfOf, emptyRows, findingOf, parseJson, tagsSent, type MirroredCall, type ModelFinding } from './findings.ts';

export type { MirroredCall } from './findings.ts';
import { UsageDeltas } from './usage-deltas.ts';
import { CursorPairs, type Follows } from './cursors.ts';
import { ownKeyDifferences } from './own-keys.ts';

const MODEL_ORIGIN = 'http://model.invalid';

/** A contract document's `info.version`, or undefined. */
const versionOf = (document: unknown): unknown => (document as { info?: { version?: unknown } } | null)?.info?.version;

export class ServiceModel {
  source: string;
  readonly hasData: boolean;
  private readonly engine: Engine;
  private readonly control: ControlClient;
  /** The keys the model was told of, each with its key_id in the model. */
  private readonly keys = new Map<string, string>();
  /** The service's cursors, each with the model's from its answer to the same call (cursors.ts). */
  private readonly cursors = new CursorPairs();
  /** The service's tags, each with the model's for the same body. */
  private readonly tags = { model: new Map<string, string>(), service: new Map<string, string>() };
  private readonly usage = new UsageDeltas();
  /** The service's key ids, each with the model's for the same key. */
  private readonly keyIds = new Map<string, string>();
  private readonly asOf: string;

  private constructor(engine: Engine, data: ModelData | null, asOf: string) {
    this.engine = engine;
    this.control = createControlClient({ baseUrl: MODEL_ORIGIN, fetch: inProcessFetch(engine) });
    this.source = data?.source ?? 'no data: the model judges behaviour only';
    this.hasData = data !== null;
    this.asOf = asOf;
  }

  /** The model on `data` (or none), the run's key as the service's first `/account` says it. */
  static async build(
    data: ModelData | null,
    run: { key: string; plan: PlanId; asOf: string; account: unknown },
    validator?: ContractValidator,
  ): Promise<ServiceModel> {
    const asOf = data?.asOf ?? run.asOf;
    const rows = data ? settled(data.rows) : emptyRows();
    const engine = createEngine({
      dataset: { asOf, rows, changes: [], pending: [] },
      validator: validator ?? (await createContractValidator()),
      now: Date.parse(asOf),
      frozen: true,
      rateLimit: false,
      journal: 0,
    });
    await engine.ready;
    const model = new ServiceModel(engine, data, asOf);
    await model.addKey(run.plan, run.key, run.account);
    return model;
  }

  /** A call of `key` not made of the model (a burst): the next answer starts the usage comparison afresh. */
  unjudged = (key: string): void => this.usage.resynced(key, false);

  /** Why the model holds no data (a dump it could not read), for the report. */
  noDataBecause = (why: string): void => void (this.source = `no data (${why}): the model judges behaviour only`);

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
  private async syncUsage(key: string, callsUsed: unknown): Promise<boolean> {
    const keyId = this.keys.get(key);
    if (keyId === undefined || typeof callsUsed !== 'number' || callsUsed < 0) return false;
    return this.control.setUsage(keyId, callsUsed).then(
      () => true,
      () => false,
    );
  }

  /**
   * A call of the mock's control API (--use-control) made of the model too (keys, usage, clock); one
   * the model refuses (a key made before its clock) leaves it without that key, never failing the run.
   */
  async mirrorControl(method: string, path: string, body: unknown, answer: unknown): Promise<void> {
    await this.mirror(method, path, body, answer).catch(() => undefined);
  }

  private async mirror(method: string, path: string, body: unknown, answer: unknown): Promise<void> {
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

  /** Whether the model holds its own next page for a request sending a service's `next_cursor` back (cursors.ts). */
  follows = (path: string): Follows => this.cursors.follows(new URL(path, MODEL_ORIGIN));

  /** The findings of one call: the model's answer to it against the service's. */
  async judge(call: MirroredCall): Promise<ModelFinding[]> {
    const skip = this.whySkipped(call);
    if (skip !== null) {
      if (skip === 'trial' && call.status === 201) await this.learnTrial(call.responseBody);
      if (call.own) await this.resync(call, false);
      return [];
    }
    const followed = this.cursors.modelCursor(new URL(call.path, MODEL_ORIGIN))?.followed === true;
    const answer = await this.engine.fetch(this.translated(call), { clientAddress: '127.0.0.1', loopback: true });
    const text = await answer.text();
    const body = call.responseBody === undefined ? undefined : parseJson(text, answer.headers.get('content-type'));
    const service = { status: call.status, headers: call.responseHeaders, body: call.responseBody };
    const model = { status: answer.status, headers: answer.headers, body };
    this.cursors.learn(call.path, call.responseBody, body);
    const found: Difference[] = [
      ...this.tagDifferences(service.headers, model.headers),
      ...compareAnswers(service, model),
      ...(call.operationId === 'getAccount' ? ownKeyDifferences(service.body, body, this.keyIds) : []),
    ];
    if (call.own) {
      found.push(...this.usage.judge(call.key!, call.overlapped, call.responseBody, body));
      // Answered otherwise by leave of the table (a record the model does not hold): counted otherwise too.
      await this.resync(call, call.status === answer.status);
    }
    const servedAsOf = asOfOf(call.responseBody, this.asOf);
    // An as_of earlier than the service's own data the model holds went back; a later one moved past it.
    const asOfBehind = Date.parse(servedAsOf) < Date.parse(this.asOf);
    const judged = behaviourOnly(found, {
      operationId: call.operationId,
      hasData: this.hasData && (servedAsOf === this.asOf || asOfBehind),
      asOfBehind,
      serviceCode: (call.responseBody as { code?: string } | null | undefined)?.code,
      sameDocument: call.operationId === 'getOpenApiDocument' && versionOf(call.responseBody) === versionOf(body),
    });
    return judged.map((d) => findingOf(call, d, followed));
  }

  /** Why this call is not made of the model, or null: the model could not have been told what it needs. */
  private whySkipped(call: MirroredCall): string | null {
    // A 429 is a decision in time, which the model (no limiter) does not make; neither counts it.
    if (call.status === 429) return 'rate';
    if (call.operationId === 'createTrialKey' && ![400, 413, 415].includes(call.status)) return 'trial';
    // A key the model was never told of, which the service accepts: nothing to judge it by.
    if (call.key !== null && !this.keys.has(call.key) && call.status !== 401) return 'unknown key';
    // A cursor the model never gave (a page read before it was built), which the service took.
    const url = new URL(call.path, MODEL_ORIGIN);
    if (url.searchParams.has('cursor') && !this.cursors.modelCursor(url) && call.status < 400) return 'unknown cursor';
    // A tag the model never paired with its own (for data it does not hold), which the service matched.
    const unknownTag = tagsSent(call.headers).some((tag) => !this.tags.model.has(tag));
    if (unknownTag && call.status === 304) return 'unknown tag';
    return null;
  }

  /** After a call of the run's key: the model's count made the service's again, and the next move judged from there. */
  private async resync(call: MirroredCall, judged: boolean): Promise<void> {
    const of = call.responseBody as { usage?: { calls_used?: unknown }; data?: { usage?: { calls_used?: unknown } } };
    const used = of?.usage?.calls_used ?? of?.data?.usage?.calls_used;
    if (typeof used !== 'number') {
      if (!judged) this.usage.resynced(call.key!, false);
      return;
    }
    const synced = await this.syncUsage(call.key!, used);
    this.usage.resynced(call.key!, judged && synced);
  }

  private async learnTrial(body: unknown): Promise<void> {
    const { key, key_id: keyId } = (body ?? {}) as { key?: unknown; key_id?: unknown };
    if (typeof key !== 'string') return;
    await this.addKey('trial', key);
    if (typeof keyId === 'string') this.keyIds.set(keyId, this.keys.get(key)!);
  }

  /** The request as the model must get it: the service's cursor and tags in the model's own. */
  private translated(call: MirroredCall): Request {
    const url = new URL(call.path, MODEL_ORIGIN);
    const own = this.cursors.modelCursor(url);
    if (own) url.searchParams.set('cursor', own.cursor);
    const headers = new Headers(call.headers);
    const tags = headers.get('if-none-match');
    if (tags)
      headers.set(
        'if-none-match',
        tags.replace(/(W\/)?"[^"]*"/g, (tag) => this.tags.model.get(tag) ?? tag),
      );
    return new Request(url, { method: call.method, headers, ...(call.body === undefined ? {} : { body: call.body }) });
  }

  /** An entity tag is the same exactly when the body is: the service's tags and the model's pair one to one. */
  private tagDifferences(service: Headers, model: Headers): Difference[] {
    const s = service.get('etag');
    const m = model.get('etag');
    if (s === null || m === null) return [];
    const paired = this.tags.model.get(s);
    const back = this.tags.service.get(m);
    if ((paired !== undefined && paired !== m) || (back !== undefined && back !== s))
      return [{ pointer: 'header:etag', service: `${s} (given before for ${back ?? 'another body'})`, model: m }];
    this.tags.model.set(s, m);
    this.tags.service.set(m, s);
    return [];
  }
}
