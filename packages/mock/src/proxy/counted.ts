/**
 * The proxy's exchanges and violations, counted as they are recorded, into counters the caller
 * gives (the CLI's: prom-client's, `--metrics-port`). Labels from bounded sets only: the contract's
 * operationId (`none` off the contract), the status class, the rule; never a path or a key.
 */
import { operationFor } from '@investor-graph/contract';
import type { ExchangeCounters, ExchangeRecord } from './types.ts';

/** The contract's operation of a method and path, HEAD read as its GET; `none` off the contract. */
export function operationLabel(method: string, pathname: string): string {
  return operationFor(method === 'HEAD' ? 'GET' : method, pathname)?.operationId ?? 'none';
}

/** Counts one recorded exchange: once, and each violation by rule, those past its budget (`more`) too. */
export function countExchange(counters: ExchangeCounters, pathname: string, record: ExchangeRecord): void {
  const operation = operationLabel(record.method, pathname);
  counters.exchanges.inc({ operation, status_class: `${Math.floor(record.status / 100)}xx` });
  for (const v of record.violations) counters.violations.inc({ rule: v.rule, operation });
  for (const [rule, n] of Object.entries(record.more ?? {})) counters.violations.inc({ rule, operation }, n);
}
