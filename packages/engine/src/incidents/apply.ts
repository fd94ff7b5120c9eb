/**
 * The incident step of a call (wrapper.ts takes it once the call is routed and its key known,
 * before anything is read, counted or charged): the newest incident the call matches changes it.
 * One that answers in the service's place throws its problem (answered as the steps' own) or
 * cuts the connection; latency waits, then lets the call go on; a slow body marks the answer for
 * the adapter to send slowly. The call's journal entry names the incident (`note.incident`).
 */
import { plans, type PlanId } from '@investor-graph/contract/plans';
import { overTheRate, rateHeaders } from '../accounts/rate-policy.ts';
import type { Answer } from '../answer.ts';
import type { CallNote } from '../context.ts';
import { ProblemError } from '../problems.ts';
import type { CallFacts, Incident } from './incidents.ts';
import { incidentKinds } from './kinds.ts';
import type { IncidentStore } from './store.ts';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const nothingTaken = 'nothing was served, counted or charged';

/** The answer of a cut connection: no status, no headers, no body (an adapter writes none of it). */
export const cutAnswer = (): Answer => ({ status: 0, headers: {}, body: null, delivery: { cut: true } });

/**
 * Meets the incident `call` matches, if any: null to go on serving the call (after a latency's
 * wait), an answer to give instead (a cut connection), or a thrown problem.
 */
export async function meetIncident(
  incidents: IncidentStore,
  call: CallFacts & { plan: PlanId | null },
  serviceNow: number,
  note: CallNote,
): Promise<Answer | null> {
  if (!incidents.any) return null;
  const incident = await incidents.take(call, serviceNow);
  if (!incident) return null;
  note.incident = incident.id;
  const rule = incidentKinds[incident.kind];
  if (rule.cuts) return cutAnswer();
  if (rule.problem === 'rate_limited') throw stormAnswer(incident, call.plan);
  if (rule.problem) {
    const wait = incident.retry_after;
    throw new ProblemError(
      rule.problem,
      `${rule.failure} (the mock's incident ${incident.id}): ${nothingTaken}.` +
        (wait === undefined ? '' : ` Retry after ${seconds(wait)}.`),
      wait === undefined ? {} : { headers: { 'retry-after': String(wait) } },
    );
  }
  if (incident.latency_ms !== undefined) await sleep(delayOf(incident));
  if (incident.bytes_per_second !== undefined) note.delivery = { bytesPerSecond: incident.bytes_per_second };
  return null;
}

/** A 429 as the service's own for the key's plan (its rate in the headers, its actions), or for the open calls. */
function stormAnswer(incident: Incident, plan: PlanId | null): ProblemError {
  const wait = incident.retry_after!;
  if (plan === null)
    return new ProblemError(
      'rate_limited',
      `The service is limiting calls now (the mock's incident ${incident.id}); retry after ${seconds(wait)}.`,
      { headers: { 'retry-after': String(wait) } },
    );
  const rate = plans[plan].rate_per_second;
  return overTheRate(plan, rate, wait, { 'ratelimit-policy': rateHeaders.policy(rate) });
}

/** The latency with its jitter, evenly spread over latency ± jitter, never below nothing. */
function delayOf(incident: Incident): number {
  const jitter = incident.jitter_ms ?? 0;
  return Math.max(0, incident.latency_ms! + (Math.random() * 2 - 1) * jitter);
}

const seconds = (n: number): string => `${n} second${n === 1 ? '' : 's'}`;
