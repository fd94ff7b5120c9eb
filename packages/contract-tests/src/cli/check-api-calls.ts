/**
 * What investor-graph-check-api asks the service before its steps (a trial key, the key's plan, the
 * served contract), and its own lines: a call that cannot be made stops the check in one line.
 */
import { exitCode, writeSetupReports, type SetupStep } from '@investor-graph/cli';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export const name = 'investor-graph-check-api';

/** How a user without k6 gets one, as investor-graph-load says it. */
export const howToGetK6 =
  'give --k6 (or K6_BIN) a k6 v2 binary, or leave both unset with Go 1.26 or later installed and the kit builds it';

/**
 * The tools the steps drive, from the project the check runs in (the README's install line for CI),
 * resolved from the current folder as npx would; a tool missing stops the check, naming the install.
 */
export function projectTools(): { spectral: string; ruleset: string; load: string } {
  const fromProject = createRequire(join(process.cwd(), 'package.json'));
  const binOf = (pkg: string, bin: string): string => {
    const manifest = fromProject.resolve(`${pkg}/package.json`);
    const bins = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: Record<string, string> }).bin ?? {};
    return join(dirname(manifest), bins[bin]!);
  };
  const tools = {
    spectral: ['@stoplight/spectral-cli', () => binOf('@stoplight/spectral-cli', 'spectral')],
    ruleset: ['@investor-graph/spectral-ruleset', () => fromProject.resolve('@investor-graph/spectral-ruleset')],
    load: ['@investor-graph/load', () => binOf('@investor-graph/load', 'investor-graph-load')],
  } as const;
  const found: Record<string, string> = {};
  const missing: string[] = [];
  for (const [tool, [pkg, find]] of Object.entries(tools)) {
    try {
      found[tool] = find();
    } catch {
      missing.push(pkg);
    }
  }
  if (missing.length)
    stop(`install ${missing.join(' and ')} in this project first (npm i -D ${missing.join(' ')})`, 'tools');
  return found as { spectral: string; ruleset: string; load: string };
}

/** A trial key for the address, or one line saying why there is none (exit 2 without an address, 3 refused). */
export async function trialKey(
  baseUrl: string,
  email: string | undefined,
  fail: (message: string) => never,
): Promise<string> {
  if (!email) fail('set INVESTOR_GRAPH_KEY, or INVESTOR_GRAPH_EMAIL for a trial key');
  const answer = await call(`${baseUrl}/api/v1/keys/trial`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  const body = (await answer.json().catch(() => ({}))) as { key?: string; detail?: string };
  if (!body.key)
    stop(`no trial key from ${baseUrl}/api/v1/keys/trial: ${body.detail ?? `status ${answer.status}`}`, 'key');
  return body.key;
}

/** The key's plan, which picks the k6 script (its rate). */
export async function planOf(baseUrl: string, key: string): Promise<string> {
  const answer = await call(`${baseUrl}/api/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await answer.json().catch(() => ({}))) as { data?: { plan?: { id?: string } } };
  const plan = body.data?.plan?.id;
  if (answer.status === 401 || answer.status === 403)
    stop(`${baseUrl}/api/v1/account did not accept the key (status ${answer.status})`, 'key');
  if (!answer.ok || !plan || !/^[a-z]+$/.test(plan))
    stop(`${baseUrl}/api/v1/account answered ${answer.status} without the key's plan`);
  return plan;
}

/** The served contract into the results folder; false (the step failed, said why) when there is none. */
export async function fetchContract(baseUrl: string, out: string): Promise<boolean> {
  try {
    const answer = await fetch(`${baseUrl}/api/v1/openapi.json`, { signal: AbortSignal.timeout(30_000) });
    if (!answer.ok) throw new Error(`status ${answer.status}`);
    writeFileSync(join(out, 'openapi.json'), Buffer.from(await answer.arrayBuffer()));
    return true;
  } catch (error) {
    say(`no contract at ${baseUrl}/api/v1/openapi.json: ${(error as Error).message}`);
    return false;
  }
}

/** A line of the check's own, with the prefix its errors have too. */
export function say(line: string): void {
  console.log(`[${name}] ${line}`);
}

/** Where a check that cannot start writes why, and what it was pointed at; set once its flags are read. */
let reports: { out: string; facts: Record<string, string> } | undefined;

/**
 * A set-up failure from here on writes the contract tests' three reports into `out`, saying why
 * (the files the action's outputs name, so that a CI page shows it).
 */
export function reportSetupFailuresIn(out: string, facts: Record<string, string>): void {
  reports = { out, facts };
}

/**
 * The check cannot start for a reason of the set-up, not of its flags: one line saying what to fix,
 * the reports saying the same (a failed case naming `step`), and exit 3.
 */
export function stop(line: string, step: SetupStep = 'service'): never {
  console.error(`[${name}] ${line}`);
  if (reports) {
    const file = (ext: string) => join(reports!.out, `contract-tests.${ext}`);
    writeSetupReports(
      { command: name, step, reason: line, facts: reports.facts },
      { junit: file('xml'), json: file('json'), html: file('html') },
    );
  }
  process.exit(exitCode.setup);
}

/**
 * fetch, where a service that cannot be reached stops the check in one line (the cause only: never
 * the request's headers).
 */
async function call(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    const cause = ((error as Error).cause as Error | undefined)?.message;
    const timedOut = (error as Error).name === 'TimeoutError';
    return stop(
      `cannot reach ${url}: ${cause ?? (timedOut ? 'no answer within 30 s' : 'the request could not be made')}`,
    );
  }
}

/**
 * The k6 the smoke step runs, as `investor-graph-load k6` finds or builds it (its build notes pass
 * through as they come); or why there is none, in the load command's own words.
 */
export function k6Path(load: string, env: NodeJS.ProcessEnv): Promise<{ bin: string } | { missing: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [load, 'k6'], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let printed = '';
    let said = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      // A build's notes ([kit] ...) pass through; the command's own line is the reason there is none.
      for (const line of chunk.toString().split('\n').filter(Boolean))
        if (line.startsWith('[investor-graph-load')) said = line.replace(/^\[[^\]]+\] /, '');
        else console.error(line);
    });
    child.on('error', (error) => resolve({ missing: `investor-graph-load k6 could not run: ${error.message}` }));
    child.on('close', (code) => {
      const bin = printed.trim().split('\n').at(-1);
      resolve(code === 0 && bin ? { bin } : { missing: said || `investor-graph-load k6 exited ${code}` });
    });
  });
}

/**
 * Spectral's JUnit of a clean lint is an empty <testsuites>, which a dashboard shows as no test at
 * all: a lint that held is one passing case (a finding is a case of its own, as Spectral writes it).
 */
export function lintCaseWhenClean(file: string, seconds: number): void {
  let xml = '';
  try {
    xml = readFileSync(file, 'utf8');
  } catch {
    // No file: Spectral wrote none, and the step's outcome stands on its exit code alone.
    return;
  }
  if (xml.includes('<testcase')) return;
  const time = seconds.toFixed(3);
  writeFileSync(
    file,
    '<?xml version="1.0" encoding="UTF-8" ?>\n' +
      `<testsuites name="spectral lint" tests="1" failures="0" errors="0" time="${time}">\n` +
      `  <testsuite name="lint of the served contract" tests="1" failures="0" errors="0" skipped="0" ` +
      `time="${time}">\n` +
      `    <testcase classname="lint" name="the served contract passes the kit's Spectral ruleset" time="${time}"/>\n` +
      '  </testsuite>\n</testsuites>\n',
  );
}
