/**
 * Deliberate faults for the mock: each one makes it break one rule of the spec or the contract, the
 * way a real service might. They exist so that a checker (the contract tests, the validation
 * proxy, an integrator's own client tests) can show it catches the break. One table, by name, of
 * what each breaks and how it wraps the engine's fetch (fault.ts), in groups by what they break;
 * the engine itself stays correct and every adapter can switch them on.
 */
import type { RequestContext } from '../context.ts';
import { toResponse, type Answer } from '../answer.ts';
import type { Engine } from '../engine.ts';
import { pathUnder } from '../http/query.ts';
import type { Wrapper } from '../wrapper.ts';
import { billingFaults } from './billing.ts';
import { acrossFaults } from './across.ts';
import { derivedFaults } from './derived.ts';
import { documentFaults } from './documents.ts';
import type { EngineFaultOptions, Fault, FaultDeps, Fetch } from './fault.ts';
import { httpFaults } from './http.ts';
import { keyFaults } from './keys.ts';
import { keyStateFaults } from './key-state.ts';
import { pageFaults } from './pages.ts';

export type { Fault } from './fault.ts';

export const faultTable = {
  ...keyFaults,
  ...keyStateFaults,
  ...pageFaults,
  ...httpFaults,
  ...billingFaults,
  ...documentFaults,
  ...derivedFaults,
  ...acrossFaults,
} satisfies Record<string, Fault>;

export type FaultName = keyof typeof faultTable;

export const faultNames = Object.keys(faultTable) as FaultName[];

/** What each fault breaks, by name (`--help` lists them). */
export const faults = Object.fromEntries(faultNames.map((name) => [name, faultTable[name].breaks])) as Record<
  FaultName,
  string
>;

export function isFaultName(value: string): value is FaultName {
  return Object.hasOwn(faultTable, value);
}

/**
 * The engine's fetch with the named faults switched on, the first named outermost; the control
 * endpoints are left alone. A fault that acts as another key, or reads the data, takes the engine.
 */
export function withFaults(fetch: Fetch, names: readonly FaultName[], engine?: FaultDeps['engine']): Fetch {
  if (names.length === 0) return fetch;
  const deps: FaultDeps = engine ? { engine } : {};
  const broken = names.reduceRight<Fetch>((next, name) => (faultTable[name] as Fault).wrap(next, deps), fetch);
  // Told from the text, as the engine does: a URL no parser takes
  // (bare-limit-answers lets a bad Host through) is the engine's 400.
  return (request: Request, context?: RequestContext) =>
    CONTROL_URL.test(request.url) ? fetch(request, context) : broken(request, context);
}

const CONTROL_URL = pathUnder('/__control');

type AnswerFunction = Engine['answer'];

/**
 * The named faults as one wrapper of the engine's list (engine.ts `wrappers`, outermost first):
 * `createEngine({ ...faultEngineOptions(names, () => engine), wrappers: (e) => [faultWrapper(names, e)] })`.
 */
export function faultWrapper(names: readonly FaultName[], engine?: FaultDeps['engine']): Wrapper {
  return (next) => withFaultsOnAnswer(next, names, engine);
}

/**
 * The engine's one entry, `answer`, with the named faults switched on: the faults work on the
 * Response made of each answer (fault.ts), and what they leave is made a record again, so an
 * adapter that writes records (the Node server's fast path) serves a faulted call the way it serves
 * a clean one. A request an adapter read without building a Request (the fast path's) is made one
 * first, for the faults that rewrite or clone it.
 */
export function withFaultsOnAnswer(
  answer: AnswerFunction,
  names: readonly FaultName[],
  engine?: FaultDeps['engine'],
): AnswerFunction {
  if (names.length === 0) return answer;
  const broken = withFaults(async (request, context) => toResponse(await answer(request, context)), names, engine);
  return async (request, context) => {
    const made = asRequest(request);
    // A URL no parser takes (bare-limit-answers lets a bad Host through) is the engine's 400, faults or not.
    return made ? answerOf(await broken(made, context)) : answer(request, context);
  };
}

function asRequest(request: Request): Request | null {
  if (request instanceof Request) return request;
  const { url, method, headers } = request as Pick<Request, 'url' | 'method' | 'headers'>;
  return URL.canParse(url) ? new Request(url, { method, headers: [...headers] }) : null;
}

/** A Response as an answer record, its body read whole (a dump's too: faults are for the small datasets of tests). */
async function answerOf(response: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const body = response.body === null ? null : new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers, body };
}

/** The engine options the named faults set (a fault that acts inside the engine); `engine` is read at call time. */
export function faultEngineOptions(
  names: readonly FaultName[],
  engine: () => Pick<Engine, 'clock'>,
): EngineFaultOptions {
  return Object.assign(
    {},
    ...names.map((name) => (faultTable[name] as Fault).engine?.(engine) ?? {}),
  ) as EngineFaultOptions;
}

/** The Node server options the named faults set (a fault that acts before any request reaches the engine). */
export function faultAdapterOptions(names: readonly FaultName[]): { bareLimitAnswers?: boolean } {
  return Object.assign({}, ...names.map((name) => (faultTable[name] as Fault).adapter ?? {})) as {
    bareLimitAnswers?: boolean;
  };
}
