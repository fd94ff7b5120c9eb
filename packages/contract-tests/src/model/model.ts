/**
 * The model of the service under test (issue #65): the kit's own engine, in this process, built on
 * the service's data (model-data.ts), its key's plan, usage and balance taken from the service's
 * first `/account`, and kept in step with the service's keys and clock (mirrored-control.ts). Every
 * call the run makes is made of the model too (cursors and tags told in the model's own: cursors.ts,
 * tags.ts), the answers compared (compare.ts), what may differ one table (allowed.ts).
 */
import { createContractValidator, type ContractValidator, type PlanId } from '@investor-graph/contract';
import { createControlClient, createEngine, inProcessFetch, type Engine } from '@investor-graph/engine';
import { compareAnswers, type Difference } from './compare.ts';
import { settled, type ModelData } from './model-data.ts';
import { behaviourOnly } from './allowed.ts';
import { asOfOf, emptyRows, findingOf, parseJson, tagsSent, type MirroredCall, type ModelFinding } from './findings.ts';

export type { MirroredCall } from './findings.ts';
import { UsageDeltas } from './usage-deltas.ts';
import { CursorPairs, type Follows } from './cursors.ts';
import { ownKeyDifferences } from './own-keys.ts';
import { MirroredControl } from './mirrored-control.ts';
import { TagPairs } from './tags.ts';

const MODEL_ORIGIN = 'http://model.invalid';

/** A contract document's `info.version`, or undefined. */
const versionOf = (document: unknown): unknown => (document as { info?: { version?: unknown } } | null)?.info?.version;

export class ServiceModel {
  source: string;
  readonly hasData: boolean;
  private readonly engine: Engine;
  /** The keys, their usage and the clock, told to the model as the run tells the service (mirrored-control.ts). */
  private readonly control: MirroredControl;
  /** The service's cursors, each with the model's from its answer to the same call (cursors.ts). */
  private readonly cursors = new CursorPairs();
  /** The service's entity tags, each with the model's for the same body (tags.ts). */
  private readonly tags = new TagPairs();
  private readonly usage = new UsageDeltas();
  private readonly asOf: string;

  private constructor(engine: Engine, data: ModelData | null, asOf: string) {
    this.engine = engine;
    this.control = new MirroredControl(createControlClient({ baseUrl: MODEL_ORIGIN, fetch: inProcessFetch(engine) }));
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
  addKey(plan: PlanId, key: string, account?: unknown): Promise<void> {
    return this.control.addKey(plan, key, account);
  }

  /**
   * A call of the mock's control API (--use-control) made of the model too (keys, usage, clock); one
   * the model refuses (a key made before its clock) leaves it without that key, never failing the run.
   */
  async mirrorControl(method: string, path: string, body: unknown, answer: unknown): Promise<void> {
    await this.control.mirror(method, path, body, answer).catch(() => undefined);
  }

  /** Whether the model holds its own next page for a request sending a service's `next_cursor` back (cursors.ts). */
  follows = (path: string): Follows => this.cursors.follows(new URL(path, MODEL_ORIGIN));

  /** The findings of one call: the model's answer to it against the service's. */
  async judge(call: MirroredCall): Promise<ModelFinding[]> {
    const skip = this.whySkipped(call);
    if (skip !== null) {
      if (skip === 'trial' && call.status === 201) await this.control.learnTrial(call.responseBody);
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
      ...this.tags.differences(service.headers, model.headers),
      ...compareAnswers(service, model),
      ...(call.operationId === 'getAccount' ? ownKeyDifferences(service.body, body, this.control.keyIds) : []),
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
    if (call.key !== null && !this.control.knows(call.key) && call.status !== 401) return 'unknown key';
    // A cursor the model never gave (a page read before it was built), which the service took.
    const url = new URL(call.path, MODEL_ORIGIN);
    if (url.searchParams.has('cursor') && !this.cursors.modelCursor(url) && call.status < 400) return 'unknown cursor';
    // A tag the model never paired with its own (for data it does not hold), which the service matched.
    const unknownTag = tagsSent(call.headers).some((tag) => !this.tags.knows(tag));
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
    const synced = await this.control.syncUsage(call.key!, used);
    this.usage.resynced(call.key!, judged && synced);
  }

  /** The request as the model must get it: the service's cursor and tags in the model's own. */
  private translated(call: MirroredCall): Request {
    const url = new URL(call.path, MODEL_ORIGIN);
    const own = this.cursors.modelCursor(url);
    if (own) url.searchParams.set('cursor', own.cursor);
    const headers = new Headers(call.headers);
    const tags = headers.get('if-none-match');
    if (tags) headers.set('if-none-match', this.tags.translate(tags));
    return new Request(url, { method: call.method, headers, ...(call.body === undefined ? {} : { body: call.body }) });
  }
}
