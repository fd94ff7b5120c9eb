/**
 * Drift: the contract a service serves (or a file) against the kit's contract, or against a
 * baseline file (the last one seen), by oasdiff (diff-oasdiff.ts). `investor-graph-contract-tests
 * diff` prints it (diff-cli.ts), and the contract tests' run starts with it (cli.ts).
 *
 * What breaks: every change oasdiff calls an error, and every one it calls a warning (a removed
 * request parameter, a changed pattern), since this API refuses what it does not know (a parameter
 * it no longer has is a 400) and a client built on the old contract meets it. Info is non-breaking:
 * a new optional field or a new operation, which clients ignore (DECISIONS.md#deprecation).
 *
 * A drift gate that cannot read what it judges must not pass: a served contract that cannot be had
 * or read (an error status, an HTML page, no OpenAPI document, a $ref to another file, anything
 * oasdiff cannot load) fails the diff, the reason its one breaking entry. Only the kit's own want of
 * a tool (no oasdiff, and no Go to build it) leaves it not run, a note that fails nothing.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printable } from '@investor-graph/cli';
import { findOasdiff, oasdiffChanges, oasdiffLevel, type OasdiffBin, type OasdiffChange } from './diff-oasdiff.ts';

/**
 * One change between two contracts, as oasdiff names it: its check's id, the operation (`GET
 * /api/v1/firms`) and what changed.
 */
export interface DiffChange {
  id: string;
  operation?: string;
  text: string;
}

/**
 * The diff of the served contract against the kit's contract (`against: 'kit'`) or a baseline file
 * (its path): failed when a change breaks clients, or, with the reason (also its one breaking
 * entry), when there was no contract it could read; not-run, with the reason, when there is no oasdiff.
 */
export interface DiffSection {
  status: 'passed' | 'failed' | 'not-run';
  /** `kit`, or the baseline file's path. */
  against: string;
  reason?: string;
  /** Failed because the service's address could not be reached at all (a set-up, for the diff command alone). */
  cannot_reach?: true;
  breaking: DiffChange[];
  non_breaking: DiffChange[];
}

export interface DiffOptions {
  /** The contract to judge: what the service at baseUrl serves (/api/v1/openapi.json), or a file. */
  served: { baseUrl: string } | { file: string };
  /** A contract file to compare against (the last one seen); the kit's contract when absent. */
  baseline?: string;
  /** The oasdiff to run; findOasdiff's when absent (built once with Go). */
  oasdiff?: OasdiffBin;
}

/** The kit's contract as @investor-graph/contract ships it, as JSON. */
export function kitContract(): string {
  return createRequire(import.meta.url).resolve('@investor-graph/contract/openapi.json');
}

/** What keeps the diff from running on the kit's side (no oasdiff to run): the one reason it is `not-run`. */
class DiffCannotRun extends Error {}

/** The served contract's address could not be reached at all: no answer, not a wrong one. */
class DiffCannotReach extends Error {}

/** oasdiff's id of no check: the entry of a diff failed for want of a contract it could read. */
export const unreadableId = 'contract-unreadable';

/** The section of a diff that could not read a contract: failed, the reason its one breaking entry. */
export function unreadableSection(reason: string, against: string): DiffSection {
  return { status: 'failed', against, reason, breaking: [{ id: unreadableId, text: reason }], non_breaking: [] };
}

/** The served contract's address at a base URL (no key needed: the contract is public). */
export const servedAt = (baseUrl: string): string => `${baseUrl.replace(/\/+$/, '')}/api/v1/openapi.json`;

/**
 * The diff, as the report's `diff` section. It never throws. A contract it cannot fetch or read is a
 * `failed` section (unreadableSection); no oasdiff, a `not-run` one. Either says why in one line.
 */
export async function contractDiff(options: DiffOptions): Promise<DiffSection> {
  const against = options.baseline ?? 'kit';
  const work = mkdtempSync(join(tmpdir(), 'investor-graph-diff-'));
  // oasdiff names the files it read: the served contract by its address, not by a temporary name.
  const servedFile = join(work, 'served-openapi.json');
  const served = 'baseUrl' in options.served;
  const shown = 'baseUrl' in options.served ? servedAt(options.served.baseUrl) : options.served.file;
  try {
    const base = options.baseline ?? kitFile();
    const baseProblem = contractProblem(readFileSync(base, 'utf8'));
    if (baseProblem) throw new Error(`${base} ${baseProblem}`);
    const revision =
      'file' in options.served
        ? readContract(options.served.file)
        : await fetchContract(options.served.baseUrl, servedFile);
    const oasdiff = options.oasdiff ?? findOasdiff();
    if ('missing' in oasdiff) throw new DiffCannotRun(oasdiff.missing);
    // A contract of the user's own (--contract, --baseline) may $ref files beside it; the served one
    // may not. Against a baseline file, oasdiff follows refs for both: the served one is first read
    // alone, against the kit's (which has none), with refs refused.
    if (served && options.baseline !== undefined) await oasdiffChanges(oasdiff.bin, kitFile(), revision);
    return diffSection(
      await oasdiffChanges(oasdiff.bin, base, revision, { externalRefs: !served || options.baseline !== undefined }),
      against,
    );
  } catch (error) {
    const reason = printable((error as Error).message.split('\n')[0]!.split(servedFile).join(shown));
    if (error instanceof DiffCannotRun) return { status: 'not-run', against, reason, breaking: [], non_breaking: [] };
    return {
      ...unreadableSection(reason, against),
      ...(error instanceof DiffCannotReach ? { cannot_reach: true } : {}),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * oasdiff's changes as the report's section: errors and warnings break clients, info does not.
 * Every text goes through `printable`: oasdiff quotes names and values from the served contract,
 * whose line breaks would split a change's line and whose escapes or bidi controls would reach a terminal.
 */
export function diffSection(changes: OasdiffChange[], against: string): DiffSection {
  const change = (c: OasdiffChange): DiffChange => ({
    id: printable(c.id),
    ...(c.operation && c.path ? { operation: printable(`${c.operation} ${c.path}`) } : {}),
    text: printable(c.level === oasdiffLevel.warning ? `${c.text} (may break some clients)` : c.text),
  });
  const breaking = changes.filter((c) => c.level >= oasdiffLevel.warning).map(change);
  const non_breaking = changes.filter((c) => c.level < oasdiffLevel.warning).map(change);
  return { status: breaking.length ? 'failed' : 'passed', against, breaking, non_breaking };
}

/**
 * Why `text` is no OpenAPI 3 document (JSON, or YAML with `openapi: 3.x` at its top), or null. An
 * error page served with 200, or an empty object, would otherwise read as every operation removed.
 */
export function contractProblem(text: string): string | null {
  if (text.trimStart().startsWith('{')) {
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      return `is not JSON (${(error as Error).message})`;
    }
    const version = (document as { openapi?: unknown }).openapi;
    return typeof version === 'string' && /^3\./.test(version)
      ? null
      : 'is no OpenAPI 3 document (its openapi field is not 3.x)';
  }
  return /^openapi:\s*['"]?3\./m.test(text) ? null : 'is no OpenAPI 3 document (no openapi: 3.x at its top)';
}

/** The kit's contract file, checked to be one: an install without it cannot run the diff (not-run). */
function kitFile(): string {
  let file: string;
  try {
    file = kitContract();
  } catch (error) {
    throw new DiffCannotRun(
      `the kit's contract is not installed (@investor-graph/contract): ${(error as Error).message}`,
    );
  }
  const problem = contractProblem(readFileSync(file, 'utf8'));
  if (problem) throw new DiffCannotRun(`the kit's contract ${file} ${problem}`);
  return file;
}

/**
 * What is wrong with a contract file given as `--FLAG FILE` (missing, or no OpenAPI 3 document),
 * as the usage error says it; null when nothing is.
 */
export function contractFileProblem(flag: string, file: string): string | null {
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return `--${flag} ${file}: no such file`;
  const problem = contractProblem(readFileSync(file, 'utf8'));
  return problem ? `--${flag} ${file} ${problem}` : null;
}

/** A contract file, checked to be one; its path. */
function readContract(file: string): string {
  const problem = contractProblem(readFileSync(file, 'utf8'));
  if (problem) throw new Error(`${file} ${problem}`);
  return file;
}

/** The contract the service serves, written to `file`; its path. Throws one line saying why there is none. */
async function fetchContract(baseUrl: string, file: string): Promise<string> {
  const url = servedAt(baseUrl);
  let answer: Response;
  try {
    answer = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    // undici's cause: a system error with its code (ECONNREFUSED), or a message.
    const cause = (error as Error).cause as { code?: string; message?: string } | undefined;
    const why =
      (error as Error).name === 'TimeoutError'
        ? 'no answer within 30 s'
        : String(cause?.code ?? cause?.message ?? (error as Error).message);
    throw new DiffCannotReach(`cannot read ${url}: ${why}`);
  }
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}, not the contract`);
  const problem = contractProblem(text);
  if (problem) throw new Error(`${url} ${problem}`);
  writeFileSync(file, text);
  return file;
}
