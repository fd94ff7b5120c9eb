/**
 * Deliberate faults for the mock: each one makes it break one rule of the spec or the contract, the
 * way a real service might. They exist so that a checker (the contract tests, the validation
 * proxy, an integrator's own client tests) can show it catches the break. One table, by name, of
 * what each breaks and how it wraps the engine's handler (fault.ts), in groups by what they break;
 * the engine itself stays correct and every adapter takes them as one wrapper of its list.
 */
import type { Engine } from '../engine.ts';
import { pathUnder } from '../http/query.ts';
import type { Handler, Wrapper } from '../wrapper.ts';
import { billingFaults } from './billing.ts';
import { acrossFaults } from './across.ts';
import { derivedFaults } from './derived.ts';
import { documentFaults } from './documents.ts';
import type { EngineFaultOptions, Fault, FaultDeps } from './fault.ts';
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
 * `handler` with the named faults switched on, the first named outermost: answer records in and
 * out, so a faulted call builds no Response on the way (fault.ts). The control endpoints are left
 * alone. A fault that acts as another key, or reads the data, takes the engine.
 */
export function withFaults(handler: Handler, names: readonly FaultName[], engine?: FaultDeps['engine']): Handler {
  if (names.length === 0) return handler;
  const deps: FaultDeps = engine ? { engine } : {};
  const broken = names.reduceRight<Handler>((next, name) => (faultTable[name] as Fault).wrap(next, deps), handler);
  // Told from the text, as the engine does. A URL no parser takes (bare-limit-answers lets a bad
  // Host through) is the engine's 400, faults or not.
  return (request, context) =>
    CONTROL_URL.test(request.url) || !URL.canParse(request.url) ? handler(request, context) : broken(request, context);
}

const CONTROL_URL = pathUnder('/__control');

/**
 * The named faults as one wrapper of the engine's list (engine.ts `wrappers`, outermost first):
 * `createEngine({ ...faultEngineOptions(names, () => engine), wrappers: (e) => [faultWrapper(names, e)] })`.
 */
export function faultWrapper(names: readonly FaultName[], engine?: FaultDeps['engine']): Wrapper {
  return (next) => withFaults(next, names, engine);
}

/** The engine's one entry, `answer`, with the named faults switched on: withFaults by its adapters' name. */
export const withFaultsOnAnswer: (
  answer: Engine['answer'],
  names: readonly FaultName[],
  engine?: FaultDeps['engine'],
) => Engine['answer'] = withFaults;

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
