/**
 * The properties, in the order a run takes them (each gets an even share of what budget is left,
 * so the order is part of what a run checks). Each generates its own inputs with fast-check,
 * spends only through the budgeted client, and fails on what it asserts itself and on any
 * single-response rule broken by a call it made (see @investor-graph/contract's rules). `spec` and
 * `assumed` say what each one rests on: a section of the spec, or a decision the kit took where the
 * spec says "not shown".
 */
import { conforms, filters } from './properties/reading.ts';
import { envelope } from './properties/envelope.ts';
import { pagination, cursorTamper } from './properties/walks.ts';
import { auth, planFeatures, keyStates } from './properties/keys.ts';
import { trialRunsOut, trialCall } from './properties/trial.ts';
import { rate, account, billing } from './properties/usage.ts';
import { stability, conditional } from './properties/caching.ts';
import { httpConventions } from './properties/http-conventions.ts';
import { nightlyDumps, openapi } from './properties/data.ts';
import { statistics } from './properties/statistics.ts';
import { changes, unpublished } from './properties/changes.ts';
import { feed } from './properties/feed.ts';
import { timestamps } from './properties/timestamps.ts';
import { admission, failedAuthBudget } from './properties/admission.ts';
import { serviceClock } from './properties/service-clock.ts';
import { badInput } from './properties/bad-input.ts';
import { derived } from './properties/derived.ts';
import { sequences } from './properties/sequences.ts';
import type { Property } from './core/property.ts';

export { PropertyFailure, type Property } from './core/property.ts';

// The address's admission last: failed-auth's hundred and ten refused calls lock the run's address
// out for ten seconds, which must not starve or fail the properties after it.
export const properties: readonly Property[] = [
  conforms,
  pagination,
  cursorTamper,
  filters,
  auth,
  planFeatures,
  trialRunsOut,
  rate,
  stability,
  conditional,
  httpConventions,
  account,
  nightlyDumps,
  statistics,
  keyStates,
  serviceClock,
  trialCall,
  billing,
  openapi,
  changes,
  timestamps,
  unpublished,
  derived,
  feed,
  envelope,
  badInput,
  sequences,
  failedAuthBudget,
  admission,
];
