/**
 * What investor-graph-check-api asks the service before its steps (a trial key, the key's plan, the
 * served contract), and its own lines: a call that cannot be made stops the check in one line.
 */
import { exitCode } from '@investor-graph/cli';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'investor-graph-check-api';

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
  if (!body.key) stop(`no trial key from ${baseUrl}/api/v1/keys/trial: ${body.detail ?? `status ${answer.status}`}`);
  return body.key;
}

/** The key's plan, which picks the k6 script (its rate). */
export async function planOf(baseUrl: string, key: string): Promise<string> {
  const answer = await call(`${baseUrl}/api/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await answer.json().catch(() => ({}))) as { data?: { plan?: { id?: string } } };
  const plan = body.data?.plan?.id;
  if (answer.status === 401 || answer.status === 403)
    stop(`${baseUrl}/api/v1/account did not accept the key (status ${answer.status})`);
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

/** The check cannot start for a reason of the set-up, not of its flags: one line saying what to fix, and exit 3. */
export function stop(line: string): never {
  console.error(`[${name}] ${line}`);
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
 * The k6 the smoke step runs, as `investor-graph-load k6` finds or builds it (its notes pass through
 * as they come); undefined when there is none, and the step then says why.
 */
export function k6Path(load: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [load, 'k6'], { stdio: ['ignore', 'pipe', 'inherit'], env });
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => resolve(code === 0 ? printed.trim().split('\n').at(-1) : undefined));
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
