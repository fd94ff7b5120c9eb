/**
 * What the model may not judge, and the sentence behind what it does (issue #65). The rows of
 * `allowedDifferences` are DECISIONS.md#model-comparison's: each says which differences it lets
 * pass and why, and the report lists them. Every other difference names the sentence of the spec
 * or DECISIONS.md that fixes the value (sentences/pointer-sentences.ts), or is the kit's
 * reading of an open point: a warning, never a failure.
 */
import type { Difference } from './compare.ts';

export interface Judging {
  operationId: string | undefined;
  /** The model holds the service's data as of the answer's `as_of`. */
  hasData: boolean;
  /** The service's problem code, when it answered one. */
  serviceCode?: string | undefined;
  /** The answer's `as_of` is earlier than the data the model was given of the service: it went back. */
  asOfBehind?: boolean;
  /** The contract document the service served names the `info.version` the model's does. */
  sameDocument?: boolean;
}

export interface AllowedDifference {
  id: string;
  why: string;
  /** Whether it lets this difference pass. */
  allows(d: Difference, on: Judging): boolean;
}

/** What differs with the data: rows and their pages, tags, and what a pay-as-you-go call costs (its rows). */
const dataPointer = (p: string): boolean =>
  p === '/as_of' ||
  p === '/next_cursor' ||
  p.startsWith('/data') ||
  p === 'header:etag' ||
  p.startsWith('/usage/rows_charged') ||
  p.startsWith('/usage/balance_rows') ||
  p.startsWith('/balance/');
/** Whether a record is there, or a page's rows cost more than a balance holds: what the data decides. */
const foundOrNot = (d: Difference, on: Judging): boolean =>
  d.pointer === 'status' &&
  ([200, 304, 404].includes(d.service as number) || on.serviceCode === 'insufficient_balance') &&
  [200, 304, 404].includes(d.model as number);
/** Operations whose data is history the model is never given: a dump holds rows, not their changes or other days. */
const history = new Set(['listChanges', 'getExportManifest', 'getExportFile']);

/** DECISIONS.md#model-comparison, one row each. */
export const allowedDifferences: readonly AllowedDifference[] = [
  {
    id: 'no-data',
    why:
      'the model holds no data of the service (no dump readable with this key, no --data), or the ' +
      "service's as_of has moved past the data the model holds: rows, pages, tags, found-or-not and what " +
      'rows cost (a balance too short for them) are not judged',
    allows: (d, on) =>
      !on.hasData && (dataPointer(d.pointer) || foundOrNot(d, on)) && !(on.asOfBehind && d.pointer === '/as_of'),
  },
  {
    id: 'document',
    why:
      "a contract of another info.version than the kit's is judged by the run's diff, which lets a service " +
      'add to it, and by the rules: only its status is compared; of the same version, all but its servers',
    allows: (d, on) =>
      on.operationId === 'getOpenApiDocument' &&
      d.pointer !== 'status' &&
      (on.sameDocument !== true || d.pointer.startsWith('/servers')),
  },
  {
    id: 'no-history',
    why: 'the changes feed and the dumps are history, which a dump does not hold: their data is not judged',
    allows: (d, on) => history.has(on.operationId ?? '') && (dataPointer(d.pointer) || foundOrNot(d, on)),
  },
];

/** The differences no row of the table lets pass. */
export function behaviourOnly(found: Difference[], on: Judging): Difference[] {
  return found.filter((d) => !allowedDifferences.some((row) => row.allows(d, on)));
}
