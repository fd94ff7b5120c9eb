/**
 * An incident as a test asks for it (`POST /__control/incidents`'s body, or the typed client's
 * argument), checked member by member: every wrong member is named at once with its JSON pointer,
 * as the journal's inputs are (journal/parse.ts).
 */
import { parseDuration } from '../clock.ts';
import { patternProblem } from '../journal/match.ts';
import type { InputError, Parsed } from '../journal/parse.ts';
import type { IncidentInput, IncidentMatch } from './incidents.ts';
import { incidentKindNames, incidentKinds, isIncidentKind, parameterBounds, type IncidentParameter } from './kinds.ts';

const members = ['kind', 'match', 'calls', 'duration', 'until', ...Object.keys(parameterBounds)];
const matchMembers = ['operation', 'path', 'method', 'key_id'] as const;
/** Ten years, as the clock's own advance allows. */
const longestMs = 3650 * 86_400_000;

const record = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 500;

export function parseIncident(body: unknown): Parsed<IncidentInput> {
  const errors: InputError[] = [];
  const wrong = (pointer: string, detail: string): void => void errors.push({ pointer, detail });
  if (!record(body)) return { ok: false, errors: [{ pointer: '', detail: 'must be a JSON object' }] };
  for (const name of Object.keys(body))
    if (!members.includes(name)) wrong(`/${name}`, `is not a member (${members.join(', ')})`);
  const kind = body.kind;
  if (!isIncidentKind(kind)) wrong('/kind', `must be one of ${incidentKindNames.join(', ')}`);

  const match: IncidentMatch = {};
  if (body.match !== undefined && !record(body.match)) wrong('/match', 'must be an object');
  for (const [name, value] of Object.entries(record(body.match) ? body.match : {})) {
    if (!(matchMembers as readonly string[]).includes(name))
      wrong(`/match/${name}`, `is not a member (${matchMembers.join(', ')})`);
    else if (name === 'path' && typeof value === 'string' && patternProblem(value))
      wrong('/match/path', patternProblem(value)!);
    else if (text(value)) match[name as (typeof matchMembers)[number]] = value;
    else wrong(`/match/${name}`, 'must be a non-empty string of at most 500 characters');
  }

  const input: Omit<IncidentInput, 'kind'> = { match, parameters: {} };
  if (body.calls !== undefined) {
    if (Number.isSafeInteger(body.calls) && (body.calls as number) >= 1) input.calls = body.calls as number;
    else wrong('/calls', 'must be a whole number of calls, 1 or more');
  }
  if (body.duration !== undefined) {
    const ms = typeof body.duration === 'string' ? parseDuration(body.duration) : null;
    if (ms !== null && ms > 0 && ms <= longestMs) input.durationMs = ms;
    else wrong('/duration', 'must be an ISO 8601 duration of wall-clock time (PT30S, PT5M), at most ten years');
  }
  if (body.until !== undefined) {
    const until = typeof body.until === 'string' ? Date.parse(body.until) : NaN;
    if (typeof body.until === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(body.until) && Number.isFinite(until))
      input.until = until;
    else wrong('/until', 'must be an ISO 8601 time on the simulated clock, e.g. 2026-11-21T00:00:00Z');
  }

  const takes = isIncidentKind(kind) ? incidentKinds[kind].parameters : {};
  for (const name of Object.keys(parameterBounds) as IncidentParameter[]) {
    const value = body[name];
    const fallback = takes[name];
    if (value === undefined) {
      if (fallback === null) wrong(`/${name}`, `is required for ${String(kind)}`);
      else if (fallback !== undefined) input.parameters[name] = fallback;
      continue;
    }
    if (fallback === undefined) {
      if (isIncidentKind(kind)) wrong(`/${name}`, `is not a parameter of ${kind}`);
      continue;
    }
    const [low, high] = parameterBounds[name];
    if (Number.isSafeInteger(value) && (value as number) >= low && (value as number) <= high)
      input.parameters[name] = value as number;
    else wrong(`/${name}`, `must be a whole number from ${low} to ${high}`);
  }
  if (errors.length || !isIncidentKind(kind)) return { ok: false, errors };
  return { ok: true, value: { kind, ...input } };
}
