/**
 * A run its set-up kept from starting (exit 3: the service unreachable, the key refused, a tool
 * missing, an input that cannot be read) still writes the reports it was asked for, so that a CI
 * page shows why and not an empty folder: JUnit with one failed case naming the step and the
 * reason, the JSON report with the same, and a one-page HTML report. Every command of the kit
 * writes them with these functions, in the shape each command's reports have their place in.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { exitCode } from './exit-codes.ts';
import { html, page, table } from './html-page.ts';
import { xmlText } from './xml.ts';

/** The steps a set-up is checked in, as the failed case names them. */
export const setupSteps = {
  tools: 'the tools it drives are at hand',
  service: 'the service answers',
  key: 'the service accepts the key',
  input: 'its input can be read',
  port: 'its port is free',
} as const;

export type SetupStep = keyof typeof setupSteps;

export interface SetupFailure {
  /** The command that stopped, as its lines are prefixed: `investor-graph-check-api`. */
  command: string;
  /** Which check of the set-up failed. */
  step: SetupStep;
  /** The one line the command said on stderr: what is wrong and what to fix. */
  reason: string;
  /** What the run was pointed at, shown on the page and kept in the JSON (base URL, plan): never a key. */
  facts?: Record<string, string>;
}

/** The failed case's name: the step, as a sentence that held or did not. */
export const setupCaseName = (failure: SetupFailure): string => `set-up: ${setupSteps[failure.step]}`;

/** JUnit of a run that did not start: one test case, failed with the reason. */
export function setupJunit(failure: SetupFailure): string {
  const suite = xmlText(`${failure.command} set-up`);
  const reason = xmlText(failure.reason);
  return (
    '<?xml version="1.0" encoding="UTF-8" ?>\n' +
    `<testsuites name="${suite}" tests="1" failures="1" errors="0" time="0">\n` +
    `    <testsuite name="${suite}" tests="1" failures="1" errors="0" skipped="0" time="0">\n` +
    `        <testcase classname="${suite}" name="${xmlText(setupCaseName(failure))}" time="0">\n` +
    `            <failure message="${reason}" type="SetupFailed">${reason}</failure>\n` +
    '        </testcase>\n    </testsuite>\n</testsuites>\n'
  );
}

/** The JSON report's fields of a run that did not start (a command adds its own around them). */
export function setupJson(failure: SetupFailure): {
  status: 'setup-failed';
  exit_code: number;
  setup: { step: SetupStep; check: string; reason: string };
} & Record<string, unknown> {
  return {
    status: 'setup-failed',
    exit_code: exitCode.setup,
    ...failure.facts,
    setup: { step: failure.step, check: setupSteps[failure.step], reason: failure.reason },
  };
}

/** The page of a run that did not start: the verdict, the step and the reason, what it was pointed at. */
export function setupHtml(failure: SetupFailure): string {
  const facts = Object.entries(failure.facts ?? {}).map(([name, value]) => ({
    cells: [name, html`<code>${value}</code>`],
  }));
  return page({
    title: `${failure.command}: the run did not start`,
    verdict: { ok: false, text: 'set-up failed: nothing was checked' },
    note: html`<span class="muted">exit code ${exitCode.setup}</span>`,
    body: html`<h2>${setupCaseName(failure)}</h2><pre>${failure.reason}</pre>${
      facts.length ? html`<h2>The run</h2>${table(['', ''], facts)}` : ''
    }`,
  });
}

/** Where a command's reports go; each one given is written. */
export interface ReportFiles {
  junit?: string | undefined;
  json?: string | undefined;
  html?: string | undefined;
}

/**
 * Writes the reports of a run its set-up kept from starting; the files written. A file that cannot
 * be written is left out: the one line on stderr still says why the run did not start.
 */
export function writeSetupReports(
  failure: SetupFailure,
  files: ReportFiles,
  json: object = setupJson(failure),
): string[] {
  const texts: [string | undefined, () => string][] = [
    [files.junit, () => setupJunit(failure)],
    [files.json, () => `${JSON.stringify(json, null, 2)}\n`],
    [files.html, () => setupHtml(failure)],
  ];
  const written: string[] = [];
  for (const [file, text] of texts) {
    if (!file) continue;
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text());
      written.push(file);
    } catch {
      // Unwritable: the command's line says why it stopped all the same.
    }
  }
  return written;
}
