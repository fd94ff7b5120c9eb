/**
 * The only way the suite talks to the API: paced to the plan's rate (pacing.ts), held to the budget
 * before a call is made (never after: ledger.ts), sent (send.ts), and every answer checked against
 * the contract and the spec's single-response rules on the way in.
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
import { BudgetExhausted, holdToBudget, Ledger, rowsCharged, type Budget, type Spending } from './ledger.ts';
import { Pacer } from './pacing.ts';
import { CallSender, type Outgoing, type Sent } from './send.ts';

export { BudgetExhausted, Ledger, type Answer, type AnswerModel, type Budget, type SentCall, type Spending };

export interface CallOptions extends Outgoing {
  /** The most rows this call can serve: its limit, 1 for one record, 0 for an error or a free call. */
  rows?: number;
  /** Wait out a 429 (Retry-After) and try again, at most three times. On by default. */
  honour429?: boolean;
  /** Skip the client's own pacing: only the rate property does this. */
  unpaced?: boolean;
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

export class ApiClient {
  readonly options: ClientOptions;
  readonly pages = new PageTracker();
  readonly judges = { usage: new UsageJudge(), walks: new WalkJudge() };
  /** Puts each call on the wire: its request id, its key, the run's calls at once (send.ts). */
  readonly #sender: CallSender;
  readonly answers: Answers;
  /** Paces the calls to the plan's rate and waits out a 429 (pacing.ts). */
  readonly #pacer: Pacer;
  /** The model every call is made of too, once the run has built it (issue #65: model/). */
  model: AnswerModel | undefined;

  constructor(options: ClientOptions) {
    this.options = options;
    this.answers = options.answers ?? new Answers();
    this.#sender = new CallSender(options);
    this.#pacer = new Pacer(options.plan);
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
      holdToBudget(ledger, budget, worstRows);
      if (!init.unpaced) await this.#pacer.slot();
      const answer = await this.#answer(path, init, await this.#sender.send(path, init));
      if (answer.status === 429 && init.honour429 !== false && attempt < 3) {
        await this.#pacer.waitOut(answer.headers.get('retry-after'), this.options.maxWait ?? 60);
        continue;
      }
      return answer;
    }
  }

  /** What came: charged to the ledger, checked, recorded, and a plain GET of the run's kept for the next read. */
  async #answer(path: string, init: CallOptions, sent: Sent): Promise<Answer> {
    const { ledger } = this.options;
    const { method, own, response, text, bytes } = sent;
    const body = bytes ? '' : parseBody(text, response.headers.get('content-type'));
    const operationId = operationFor(method, new URL(path, 'http://service.invalid').pathname)?.operationId;
    const handedOut = keyHandedOut(operationId, body);
    if (handedOut) hideKey(handedOut);
    const charged = rowsCharged(
      { method, status: response.status, operationId, body, rows: init.rows ?? 0 },
      { billed: this.options.plan === 'payg' && own, rowsOf: (n) => (own ? this.rowCost(n) : n) },
    );
    ledger.spend(1, charged);
    const findings = await this.#check(path, init, sent, body, operationId);
    this.#record(path, init, sent, findings);
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

  /** What the contract and the spec's single-response rules, the judges and the model find in what came. */
  async #check(
    path: string,
    init: CallOptions,
    sent: Sent,
    body: unknown,
    operationId: string | undefined,
  ): Promise<Answer['findings']> {
    const { method, key, own, headers, requestId, response, bytes, bodyError } = sent;
    const exchange = {
      method,
      url: path,
      requestHeaders: headers,
      ...(init.body === undefined ? {} : { requestBody: parseBody(init.body) }),
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body,
      ...(bodyError ? { bodyError } : {}),
      ...(own ? { plan: this.options.plan } : {}),
      ...(requestId ? { requestId } : {}),
    };
    const judged = {
      method,
      url: new URL(path, 'http://service.invalid'),
      operationId,
      own,
      overlapped: sent.overlapped,
      status: response.status,
      headers: response.headers,
      body,
    };
    const findings = [...checkExchange(this.options.validator, exchange, this.pages), ...judge(this.judges, judged)];
    // Bytes or a body that did not decode: status and headers alone; a burst (unpaced) the model would only slow.
    const whole = !bytes && !bodyError;
    const call = { path, headers, key, body: init.body, whole };
    if (this.model) findings.push(...(await this.model.judge(judged, call, this.options.ledger, init.unpaced)));
    return findings;
  }

  /** The call in the ledger: counted for its operation, and shown with each finding it holds. */
  #record(path: string, init: CallOptions, sent: Sent, findings: Answer['findings']): void {
    const { ledger } = this.options;
    const { method, key, own, headers, response, text, bytes } = sent;
    ledger.exchanges += 1;
    const made = new MadeCall(
      {
        method,
        path,
        key: !key ? 'none' : own ? 'run' : 'other',
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
  }
}
