/**
 * Sequences of calls judged against the model (issue #65): fast-check's model-based testing, whose
 * commands are calls of every data operation in every form the matrix's sentences name
 * (input-forms.ts), and the next page of a page an earlier call got (next-pages.ts). Each call is
 * made of the model too (client.ts); the first call the model or a rule finds wrong ends the
 * sequence, and fast-check shrinks it, within a budget of calls (core/run.ts), to the shortest
 * sequence still showing it. The boundary cases are the walk: the next page of a page the run got
 * of each paged operation.
 */
import fc from 'fast-check';
import type { OperationInfo } from '@investor-graph/contract';
import { dataOperations, type SuiteContext } from '../core/context.ts';
import { claims } from '../sentences/claims.ts';
import { FindingsSeen, type Property, cap } from './support.ts';
import type { Held } from './held.ts';
import { formById, pathOf, plainCall, type CallRequest, type InputForm } from './input-forms.ts';
import { NextPage, walkCases, walkCost } from './next-pages.ts';

/** The forms a claim of the matrix names: a form no sentence names is never sent. */
export const claimedForms = (): InputForm[] =>
  [...new Set(claims.flatMap((c) => c.inputs ?? []))].map((id) => {
    const form = formById.get(id);
    if (!form) throw new Error(`claims.ts names an input form no table holds: ${id}`);
    return form;
  });

/** The calls one sequence makes at most. */
const longest = 6;
/** What a sequence keeps of earlier answers to use again. */
const heldAtMost = 8;

class Call implements fc.AsyncCommand<Held, SuiteContext> {
  private shown: string;
  readonly op: OperationInfo;
  readonly forms: readonly string[];
  readonly n: number;
  constructor(op: OperationInfo, forms: readonly string[], n: number) {
    this.op = op;
    this.forms = forms;
    this.n = n;
    this.shown = `${op.operationId}${forms.length ? ` as ${forms.join(', ')}` : ''}`;
  }

  check = (): boolean => true;

  async run(held: Held, ctx: SuiteContext): Promise<void> {
    const plain = plainCall(this.op, ctx.samples, this.n);
    if (!plain) return;
    const on = { op: this.op, held, n: this.n, pageSize: cap(ctx), asOf: ctx.asOf };
    const req = this.forms.reduce((r: CallRequest, id) => formById.get(id)!.apply(r, on), plain);
    // One page a sequence may be longer than a hundred rows (the plan's cap): what its cost is priced at.
    if (req.rows > 100 && held.bigPages++ > 0)
      return void (this.shown = `${this.shown} (left out: a second long page)`);
    const path = pathOf(req);
    const headers = Object.entries(req.headers).map(([k, v]) => ` ${k}: ${v}`);
    this.shown = `${req.method} ${path}${req.key === 'own' ? '' : ` (${req.key} key)`}${headers.join(',')}`;
    const seen = ctx.ledger.findings.length;
    const answer = await ctx.client.call(path, {
      method: req.method,
      ...(req.key === 'own' ? {} : { key: req.key === 'none' ? null : unknownKey(ctx) }),
      headers: req.headers,
      rows: req.rows,
    });
    const next = (answer.body as { next_cursor?: unknown } | null)?.next_cursor;
    if (answer.status === 200 && typeof next === 'string' && req.method === 'GET' && req.key === 'own') {
      const query = req.query.filter(([k]) => k !== 'cursor');
      const asked = pathOf({ ...req, query });
      const page = { operationId: this.op.operationId, query, asked, cursor: next, rows: req.rows };
      held.cursors = [...held.cursors, page].slice(-heldAtMost);
    }
    const tag = answer.headers.get('etag');
    if (tag) held.tags = [...held.tags, { path, tag }].slice(-heldAtMost);
    if (ctx.ledger.findings.length > seen) throw new FindingsSeen(this.shown);
  }

  toString = (): string => this.shown;
}

/** A key of the kit's form that no account holds: the plan's prefix and 32 characters no key is given. */
const unknownKey = (ctx: SuiteContext): string => `igk_${ctx.config.plan}_${'0'.repeat(31)}1`;

export const sequences: Property = {
  id: 'sequences',
  title: 'any sequence of calls, in any form the sentences name, is answered as the model answers it',
  spec: ['4. Endpoints'],
  assumed: ['model-comparison'],
  skip: (ctx) => (ctx.client.model ? null : 'the run has no model (--no-model)'),
  cost: (ctx) => ({
    calls: longest,
    rows: (longest - 1) * ctx.client.rowCost(100) + ctx.client.rowCost(Math.max(cap(ctx), 100)),
  }),
  shrinks: true,
  examples: (ctx) => walkCases(ctx),
  caseCost: (ctx) => walkCost(ctx),
  arbitrary: (ctx) => {
    const forms = claimedForms();
    // Operations the plan does not serve too: their refusal is judged as any answer is.
    const commands = dataOperations.map((op) => {
      const own = forms.filter((f) => f.applies(op)).map((f) => f.id);
      return fc
        .record({ forms: fc.subarray(own, { maxLength: 2 }), n: fc.nat({ max: 10_000 }) })
        .map(({ forms: chosen, n }) => new Call(op, chosen, n));
    });
    const nextPage = fc.nat({ max: heldAtMost - 1 }).map((n) => new NextPage(n));
    return fc.commands([...commands, nextPage], {
      maxCommands: longest,
      ...(ctx.config.replayPath ? { replayPath: ctx.config.replayPath } : {}),
    });
  },
  async check(ctx, commands: Iterable<fc.AsyncCommand<Held, SuiteContext>>) {
    await fc.asyncModelRun(() => ({ model: { cursors: [], tags: [], bigPages: 0 }, real: ctx }), commands);
  },
};
