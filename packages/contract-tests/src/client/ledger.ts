/** What a run may spend and has spent: the budget, and the ledger of calls, rows and findings by check. */
import type { MadeCall, ShownExchange } from '../shown/calls-shown.ts';
import type { AnyRuleId } from '../judges/judges.ts';

export interface Budget {
  calls: number;
  rows: number;
}

export class BudgetExhausted extends Error {
  constructor(detail: string) {
    super(`[contract-tests] the budget does not cover this call: ${detail}`);
    this.name = 'BudgetExhausted';
  }
}

export interface Spending {
  calls: number;
  rows: number;
}

/** Spending and findings attributed to whatever check is running. */
export class Ledger {
  readonly total: Spending = { calls: 0, rows: 0 };
  readonly byCheck = new Map<string, Spending>();
  /** Calls whose answers went through every single-response rule. */
  exchanges = 0;
  readonly findings: ({ rule: AnyRuleId; message: string } & {
    check: string;
    call: string;
    exchange: ShownExchange;
  })[] = [];
  current = 'setup';
  /** What the model found that no sentence fixes (the kit's reading of an open point): said, failing nothing. */
  readonly modelWarnings: string[] = [];
  /** Of every call the model judged. */
  modelJudged = 0;
  /** Calls by the operation of the contract they are for (null: none). */
  readonly operations = new Map<string | null, number>();
  /** The last calls of the case running (a property clears it as a case starts): what its failure shows. */
  recent: MadeCall[] = [];

  /** A call made: counted for its operation, kept among the case's last five. */
  record(operationId: string | null, exchange: MadeCall): void {
    this.operations.set(operationId, (this.operations.get(operationId) ?? 0) + 1);
    this.recent.push(exchange);
    if (this.recent.length > 5) this.recent.shift();
  }

  spend(calls: number, rows: number): void {
    this.total.calls += calls;
    this.total.rows += rows;
    const mine = this.byCheck.get(this.current) ?? { calls: 0, rows: 0 };
    mine.calls += calls;
    mine.rows += rows;
    this.byCheck.set(this.current, mine);
  }
}

/**
 * What a call costs in rows: the service's own figure when it gives one (pay as you go, `billed`),
 * else the rows served, counted by `rowsOf` (pay as you go's minimum a call is the run's own key's
 * bill, not another key's).
 */
export function rowsCharged(
  call: { method: string; status: number; operationId: string | undefined; body: unknown; rows: number },
  how: { billed: boolean; rowsOf: (rows: number) => number },
): number {
  const { rowsOf } = how;
  const served =
    call.status === 200 && call.body && typeof call.body === 'object' && 'data' in call.body
      ? (call.body as { data: unknown; usage?: { rows_charged?: unknown } })
      : null;
  const billed = how.billed && typeof served?.usage?.rows_charged === 'number';
  // A HEAD is charged as its GET (DECISIONS.md#http-conventions) without showing the rows: count the most it can be.
  const headed = call.method === 'HEAD' && call.status === 200;
  // The account call is free (DECISIONS.md#account).
  const free = call.operationId === 'getAccount';
  return free
    ? 0
    : billed
      ? (served.usage!.rows_charged as number)
      : served
        ? rowsOf(Array.isArray(served.data) ? served.data.length : 1)
        : headed
          ? rowsOf(call.rows)
          : 0;
}
