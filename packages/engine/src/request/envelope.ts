/**
 * What wraps what an operation served: its entity tag (and whether the client's copy is current),
 * the rate and quota headers, and the envelope `{data, next_cursor, as_of, plan, usage}` written
 * around data already serialised.
 */
import { plans, type PlanRule } from '@investor-graph/contract/plans';
import { planView, type Usage } from '../accounts/accounts.ts';
import { rateHeaders } from '../accounts/rate-policy.ts';
import { usageJson } from '../accounts/metering.ts';
import { iso, type Pieces } from '../answer.ts';
import type { Call } from '../context.ts';
import type { CursorCodec } from '../data/cursor.ts';
import { etagOf } from '../hash.ts';
import type { KeyRecord } from '../stores/key-store.ts';
import type { Served } from '../operations/table.ts';
import type { Serialised } from './serialise.ts';
import { filterDigest } from '../http/query.ts';

/**
 * The entity tag of what was served, and whether `If-None-Match` holds it: weak for the envelope
 * (its usage changes every call; the data it validates does not), strong for a dump file's fixed
 * bytes (DECISIONS.md#conditional-requests).
 */
export function entityTag(
  served: Served,
  data: Serialised,
  asOf: number,
  ifNoneMatch: string | null,
): { etag: string; notModified: boolean } {
  const opaque = `"${served.etag ?? dataEtag(data, asOf)}"`;
  const etag = served.raw ? opaque : `W/${opaque}`;
  const notModified =
    ifNoneMatch !== null &&
    ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === opaque || t.trim() === '*');
  return { etag, notModified };
}

/**
 * The tag of served data as of a version of the dataset, kept with a remembered row or page until the version changes.
 */
function dataEtag(data: Serialised, asOf: number): string {
  if (data.etag?.asOf !== asOf) data.etag = { asOf, value: etagOf(`${data.tag}|${asOf}`) };
  return data.etag.value;
}

/**
 * The monthly (or trial) quota as a second item of the IETF ratelimit headers, beside the
 * per-second "default": `"quota";q=<calls>;w=<seconds>` and `"quota";r=<left>;t=<seconds to renewal>`.
 */
export function withQuota(rate: Record<string, string>, key: KeyRecord, now: number): Record<string, string> {
  const limit = plans[key.plan].calls_limit;
  if (limit === null || key.periodStart === null || key.periodEnd === null) return rate;
  const window = Math.round((key.periodEnd - key.periodStart) / 1000);
  const left = Math.max(0, limit - key.callsUsed);
  const renews = Math.max(0, Math.ceil((key.periodEnd - now) / 1000));
  return {
    ...rate,
    'ratelimit-policy': `${rate['ratelimit-policy']}, ${rateHeaders.quotaPolicy(limit, window)}`,
    ratelimit: `${rate.ratelimit}, ${rateHeaders.quotaLeft(left, renews)}`,
  };
}

export interface EnvelopeDeps {
  cursors: Pick<CursorCodec, 'encode'>;
}

const utf8 = new TextEncoder();
const planTexts = new Map<PlanRule, string>();
const planJson = (plan: PlanRule): string =>
  planTexts.get(plan) ?? planTexts.set(plan, JSON.stringify(planView(plan))).get(plan)!;
const dataOpen = utf8.encode('{"data":');
const middleMembers = (next: string | null, asOf: number, plan: PlanRule): string =>
  `"next_cursor":${JSON.stringify(next)},"as_of":"${iso(asOf)}","plan":${planJson(plan)},"usage":`;
const lastPages = new Map<PlanRule, { asOf: number; text: string }>();
function lastPageMembers(asOf: number, plan: PlanRule): string {
  let kept = lastPages.get(plan);
  if (kept?.asOf !== asOf) lastPages.set(plan, (kept = { asOf, text: middleMembers(null, asOf, plan) }));
  return kept.text;
}

/**
 * The envelope around the served body, already serialised: text, or pieces of UTF-8 around a
 * remembered page's bytes (a 50 KB page is then neither encoded nor copied again). `asOf`: the
 * rebuild the body comes from.
 */
export async function envelopeBody(
  call: Call,
  { served, data, usage, asOf }: { served: Served; data: Serialised; usage: Usage; asOf: number },
  deps: EnvelopeDeps,
): Promise<string | Pieces> {
  const next = served.next
    ? await deps.cursors.encode(call.route.operationId, filterDigest(call.route, call.query), served.next)
    : null;
  // The members after data, in the contract's order: all but usage the same for every call on a
  // plan and version of the dataset without a next page, so written once for them.
  const members = next === null ? lastPageMembers(asOf, call.plan) : middleMembers(next, asOf, call.plan);
  const rest = `${members}${usageJson(usage)}}`;
  if (data.bytes === undefined) return `{"data":${data.json},${rest}`;
  return [dataOpen, data.bytes, utf8.encode(`,${rest}`)];
}
