/**
 * The only way the suite talks to the API: paced to the plan's rate, held to the budget before a
 * call is made (never after), and every answer checked against the contract and the spec's
 * single-response rules on the way in.
 */
import {
  checkExchange,
  operationFor,
  PageTracker,
  parseBody,
  plans,
  type ContractValidator,
  type PlanId,
} from '@investor-graph/contract';
import { Answers } from './answers.ts';
import type { Answer, AnswerModel, SentCall } from './answer.ts';
import { MadeCall, operationOf, redact } from '../shown/calls-shown.ts';
import { hideKey, keyHandedOut } from '../shown/failure-text.ts';
import { judge, UsageJudge, WalkJudge } from '../judges/judges.ts';
import { BudgetExhausted, Ledger, rowsCharged, type Budget, type Spending } from './ledger.ts';

export { BudgetExhausted, Ledger, type Answer, type AnswerModel, type Budget, type SentCall, type Spending };

export interface CallOptions {
  method?: string;
  /** The key to send: the suite's own by default, null for none, or another. */
  key?: string | null;
  headers?: Record<string, string>;
  body?: string;
  /** The most rows this call can serve: its limit, 1 for one record, 0 for an error or a free call. */
  rows?: number;
  /** Wait out a 429 (Retry-After) and try again, at most three times. On by default. */
  honour429?: boolean;
  /** Skip the client's own pacing: only the rate property does this. */
  unpaced?: boolean;
  /** Keep the body's bytes (a dump file) instead of reading it as text. */
  raw?: boolean;
}

export interface ClientOptions {
  baseUrl: string;
  key: string | null;
  plan: PlanId;
  budget: Budget;
  validator: ContractValidator;
  ledger: Ledger;
  fetch?: typeof globalThis.fetch;
  /** Longest Retry-After the client waits out, in seconds. */
  maxWait?: number;
  /** Where plain GETs with the run's key are remembered (answers.ts); its own unless given. */
  answers?: Answers;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class ApiClient {
  readonly options: ClientOptions;
  readonly pages = new PageTracker();
  readonly judges = { usage: new UsageJudge(), walks: new WalkJudge() };
  /**
   * The run's own calls on their way, and a count moving whenever two are at once (judges.ts: the
   * order of counting is unknown).
   */
  #ownInFlight = 0;
  #overlaps = 0;
  /** Calls sent so far: each carries its number in X-Request-Id, as a client tracing its calls would. */
  #sent = 0;
  readonly answers: Answers;
  #nextSlot = 0;
  #spacing: number;
  /** The model every call is made of too, once the run has built it (issue #65: model/). */
  model: AnswerModel | undefined;

  constructor(options: ClientOptions) {
    this.options = options;
    this.answers = options.answers ?? new Answers();
    // Pace a little under the plan's rate so that the suite's own calls never meet a 429.
    this.#spacing = 1000 / (plans[options.plan].rate_per_second * 0.9);
  }

  get remaining(): Spending {
    const { budget, ledger } = this.options;
    return { calls: budget.calls - ledger.total.calls, rows: budget.rows - ledger.total.rows };
  }

  /** What a call serving `rows` rows costs against the budget: pay as you go bills a minimum per call. */
  rowCost(rows: number): number {
    const min = plans[this.options.plan].min_rows_per_call ?? 0;
    return rows > 0 ? Math.max(rows, min) : 0;
  }

  /**
   * The answer of a plain GET with the run's key: the one the run holds (answers.ts), else a call.
   * For what judges the data; a check that must see the service answer again calls.
   */
  async read(path: string, init: { rows?: number } = {}): Promise<Answer> {
    const held = this.answers.get(path);
    if (held) {
      this.answers.hits += 1;
      return held.answer;
    }
    return this.call(path, init);
  }

  async call(path: string, init: CallOptions = {}): Promise<Answer> {
    const { budget, ledger } = this.options;
    const worstRows = this.rowCost(init.rows ?? 0);
    for (let attempt = 0; ; attempt++) {
      if (ledger.total.calls + 1 > budget.calls)
        throw new BudgetExhausted(`${ledger.total.calls} of ${budget.calls} calls spent`);
      if (ledger.total.rows + worstRows > budget.rows)
        throw new BudgetExhausted(`up to ${worstRows} rows wanted, ${budget.rows - ledger.total.rows} left`);
      if (!init.unpaced) await this.#pace();
      const answer = await this.#send(path, init);
      if (answer.status === 429 && init.honour429 !== false && attempt < 3) {
        const wait = Number(answer.headers.get('retry-after'));
        await sleep(Math.min(Number.isFinite(wait) && wait >= 0 ? wait : 1, this.options.maxWait ?? 60) * 1000);
        continue;
      }
      return answer;
    }
  }

  async #pace(): Promise<void> {
    const now = performance.now();
    const at = Math.max(now, this.#nextSlot);
    this.#nextSlot = at + this.#spacing;
    if (at > now) await sleep(at - now);
  }

  async #send(path: string, init: CallOptions): Promise<Answer> {
    const { baseUrl, validator, ledger } = this.options;
    const key = init.key === undefined ? this.options.key : init.key;
    // Every call names itself (rule:request-id holds each answer to echo it), unless it sends an id of its own.
    const requestId = `igct-${++this.#sent}`;
    const headers: Record<string, string> = { accept: 'application/json', 'x-request-id': requestId, ...init.headers };
    const ownId = headers['x-request-id'] === requestId;
    if (key) headers.authorization = `Bearer ${key}`;
    const method = init.method ?? 'GET';
    const own = key === this.options.key;
    const overlapsBefore = this.#overlaps;
    if (own && ++this.#ownInFlight > 1) this.#overlaps += 1;
    const response = await (this.options.fetch ?? fetch)(`${baseUrl}${path}`, {
      method,
      headers,
      ...(init.body === undefined ? {} : { body: init.body }),
    }).finally(() => {
      if (own) this.#ownInFlight -= 1;
    });
    // A body that does not decode as its Content-Encoding says (bad gzip, bad br) is the service's
    // fault: a finding of the contract rule, never a crash of the run.
    let text = '';
    let bytes: Uint8Array | undefined;
    let bodyError: string | undefined;
    try {
      if (init.raw) bytes = new Uint8Array(await response.arrayBuffer());
      else text = await response.text();
    } catch (error) {
      const { message, cause } = error as Error;
      const causeSaid = String((cause as { message?: unknown } | undefined)?.message ?? cause);
      const encoding = JSON.stringify(response.headers.get('content-encoding'));
      bodyError =
        `the body could not be read as its headers say (Content-Encoding ${encoding}): ` +
        `${message}${cause ? ` (${causeSaid})` : ''}`;
    }
    const body = bytes ? '' : parseBody(text, response.headers.get('content-type'));
    const operationId = operationFor(method, new URL(path, 'http://service.invalid').pathname)?.operationId;
    const handedOut = keyHandedOut(operationId, body);
    if (handedOut) hideKey(handedOut);
    const charged = rowsCharged(
      { method, status: response.status, operationId, body, rows: init.rows ?? 0 },
      { billed: this.options.plan === 'payg' && own, rowsOf: (n) => (own ? this.rowCost(n) : n) },
    );
    ledger.spend(1, charged);

    const exchange = {
      method,
      url: path,
      requestHeaders: headers,
      ...(init.body === undefined ? {} : { requestBody: parseBody(init.body) }),
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body,
      ...(bodyError ? { bodyError } : {}),
      ...(key === this.options.key ? { plan: this.options.plan } : {}),
      ...(ownId ? { requestId } : {}),
    };
    const judged = {
      method,
      url: new URL(path, 'http://service.invalid'),
      operationId,
      own,
      overlapped: this.#overlaps !== overlapsBefore,
      status: response.status,
      headers: response.headers,
      body,
    };
    const findings = [...checkExchange(validator, exchange, this.pages), ...judge(this.judges, judged)];
    // Bytes or a body that did not decode: status and headers alone; a burst (unpaced) the model would only slow.
    const sent = { path, headers, key: key ?? null, body: init.body, whole: !bytes && !bodyError };
    if (this.model) findings.push(...(await this.model.judge(judged, sent, ledger, init.unpaced)));
    ledger.exchanges += 1;
    const made = new MadeCall(
      {
        method,
        path,
        key: !key ? 'none' : key === this.options.key ? 'run' : 'other',
        headers,
        ...(init.body === undefined ? {} : { body: init.body }),
      },
      { status: response.status, headers: response.headers, text, ...(bytes ? { bytes } : {}) },
    );
    ledger.record(operationOf(method, path), made);
    // A call that broke a rule is shown in the report (its rule's examples): its copy is made now,
    // so that the run holds that, not the whole body, for as long as it holds the finding.
    for (const f of findings)
      ledger.findings.push({
        ...f,
        check: ledger.current,
        call: `${method} ${redact(path)} -> ${response.status}`,
        exchange: made.shown,
      });
    const answer: Answer = {
      status: response.status,
      headers: response.headers,
      body,
      text,
      ...(bytes ? { bytes } : {}),
      findings,
    };
    // Only what any property may take for a read of the same path: the run's key, no header that changes the answer.
    const plain = Object.keys(init.headers ?? {}).every((name) => name.toLowerCase() === 'accept-encoding');
    if (method === 'GET' && own && plain && !init.raw && !init.body)
      this.answers.remember(path, answer, ledger.total.calls);
    return answer;
  }
}
