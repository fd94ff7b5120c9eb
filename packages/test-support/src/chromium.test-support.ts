/**
 * A page of the kit's opened in the machine's headless Chromium, for the tests of the pages the
 * kit writes (the contract tests' and the proxy's HTML reports, and their frame here): what the
 * page logged (console errors, uncaught exceptions, and the browser's own log, where a load its
 * policy blocked shows), every request it made, what it shows, and a screenshot.
 *
 * Why not playwright-core, which mock, msw and load test their pages with: the contract tests and
 * the cli package have no browser library, and would each take a 14 MB devDependency (kept at one
 * version with the others) for what is a dozen DevTools commands and five events, spoken here over
 * Node's own WebSocket. Its own failures (no browser, one that will not stop) are tested in the cli
 * package's html-page.test.ts. It lives in a private package of the workspace, never published:
 * the tests' helpers are not an entry of any package a user installs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Debian's chromium; CI installs it (.ci/run). */
export const chromiumBin = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
export const haveChromium = existsSync(chromiumBin);
/** Where the tests' screenshots go, beside the JUnit file (test-results/ at the repository's root). */
export const screenshotsDir = fileURLToPath(new URL('../../../test-results/screenshots/', import.meta.url));

/**
 * Fails a CI run that lacks Chromium (a skipped browser test there would hide a broken page); elsewhere says why the
 * test is skipped.
 */
export function chromiumMissing(what: string): string | null {
  if (haveChromium) return null;
  if (process.env.CI)
    throw new Error(
      `CI needs Chromium for ${what}, and ${chromiumBin} is missing (.ci/run installs Debian's chromium)`,
    );
  return `no Chromium at ${chromiumBin} (set CHROMIUM_BIN): ${what} is not opened in a browser`;
}

export interface OpenedPage {
  /**
   * Console errors and warnings, uncaught exceptions, the browser's own errors (a blocked load) and
   * any request but the page's own.
   */
  problems: string[];
  /** Every URL the page asked for, its own first. */
  requests: string[];
  /** The value of a JavaScript expression in the page (run by DevTools, which the page's policy does not bar). */
  evaluate<T>(expression: string): Promise<T>;
  /** The text the first element `selector` matches shows ('' when none). */
  text(selector: string): Promise<string>;
  /** Whether the first element `selector` matches is rendered and takes room on the page. */
  visible(selector: string): Promise<boolean>;
  /** The whole page as a PNG at `file`. */
  screenshot(file: string): Promise<void>;
}

interface Message {
  id?: number;
  method?: string;
  params?: any;
  result?: any;
  error?: { message: string };
  sessionId?: string;
}

/** Opens `file` in a fresh headless Chromium, hands the page to `use`, and closes the browser whatever happens. */
export async function withPage<T>(
  file: string,
  use: (page: OpenedPage) => Promise<T>,
  { width = 1200, height = 1400, bin = chromiumBin } = {},
): Promise<T> {
  const profile = mkdtempSync(join(tmpdir(), 'ig-chromium-'));
  // Its own process group, so that what it starts (renderers, the GPU process) ends with it.
  const args = [
    '--headless',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
  ];
  // Nothing of its own over the network: the only request a test sees is the page's.
  const quiet = ['--disable-background-networking', '--disable-component-update', '--disable-sync'];
  const browser = spawn(bin, [...args, ...quiet, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  // A spawn that fails (no such file, not executable) emits 'error' and never 'exit'.
  const exited = new Promise<void>((resolve) => {
    browser.once('exit', () => resolve());
    browser.once('error', () => resolve());
  });
  let socket: WebSocket | undefined;
  try {
    socket = new WebSocket(await devtoolsUrl(browser, bin));
    await new Promise((resolve, reject) => {
      socket!.onopen = resolve;
      socket!.onerror = () => reject(new Error('[chromium] the DevTools socket did not open'));
    });
    const session = protocol(socket);
    const { targetId } = await session.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await session.send('Target.attachToTarget', { targetId, flatten: true });
    const send = (method: string, params: object = {}) => session.send(method, params, sessionId);
    const url = pathToFileURL(file).href;
    const problems: string[] = [];
    const requests: string[] = [];
    let loaded!: () => void;
    const load = new Promise<void>((resolve) => (loaded = resolve));
    session.listen((m) => {
      if (m.sessionId !== sessionId) return;
      const p = m.params;
      if (m.method === 'Runtime.consoleAPICalled' && ['error', 'warning', 'assert'].includes(p.type))
        problems.push(
          `${p.type}: ` +
            p.args.map((a: { value?: unknown; description?: string }) => a.value ?? a.description).join(' '),
        );
      if (m.method === 'Runtime.exceptionThrown')
        problems.push(`uncaught: ${p.exceptionDetails.exception?.description ?? p.exceptionDetails.text}`);
      if (m.method === 'Log.entryAdded' && ['error', 'warning'].includes(p.entry.level))
        problems.push(`${p.entry.source} ${p.entry.level}: ${p.entry.text}`);
      if (m.method === 'Network.requestWillBeSent') {
        requests.push(p.request.url);
        if (p.request.url !== url) problems.push(`requested ${p.request.url}`);
      }
      if (m.method === 'Page.loadEventFired') loaded();
    });
    for (const domain of ['Page', 'Runtime', 'Log', 'Network']) await send(`${domain}.enable`);
    await send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    const navigated = await send('Page.navigate', { url });
    if (navigated.errorText) throw new Error(`[chromium] ${url} did not open: ${navigated.errorText}`);
    // A page that never finishes loading fails the test here, not at the test's own timeout.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      load,
      new Promise(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error(`[chromium] ${url} did not load within 30 s`)), 30_000)),
      ),
    ]).finally(() => clearTimeout(timer));
    const evaluate = async <V>(expression: string): Promise<V> => {
      const answer = await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
      if (answer.exceptionDetails)
        throw new Error(
          `[chromium] ${expression}: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text}`,
        );
      return answer.result.value as V;
    };
    const at = (selector: string) => `document.querySelector(${JSON.stringify(selector)})`;
    return await use({
      problems,
      requests,
      evaluate,
      text: (selector) => evaluate<string>(`${at(selector)}?.innerText ?? ''`),
      visible: (selector) =>
        evaluate<boolean>(
          `(() => { const e = ${at(selector)}; if (!e || !e.checkVisibility()) return false; const r = ` +
            `e.getBoundingClientRect(); return r.width > 0 && r.height > 0; })()`,
        ),
      async screenshot(target) {
        const { cssContentSize: size } = await send('Page.getLayoutMetrics');
        const { data } = await send('Page.captureScreenshot', {
          format: 'png',
          captureBeyondViewport: true,
          clip: { x: 0, y: 0, width: Math.ceil(size.width), height: Math.ceil(size.height), scale: 1 },
        });
        mkdirSync(join(target, '..'), { recursive: true });
        writeFileSync(target, Buffer.from(data as string, 'base64'));
      },
    });
  } finally {
    socket?.close();
    await stop(browser, exited);
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Ends the browser's process group: SIGTERM, then SIGKILL when it is still there 5 s later. */
async function stop(browser: ReturnType<typeof spawn>, exited: Promise<void>): Promise<void> {
  // Never started: nothing to end.
  if (browser.pid === undefined) return;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-browser.pid!, name);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), 5_000)));
  if (await Promise.race([exited.then(() => false), late])) signal('SIGKILL');
  clearTimeout(timer);
  await exited;
}

/** The browser's DevTools address, from the line it prints when it listens. */
function devtoolsUrl(browser: ReturnType<typeof spawn>, bin: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let said = '';
    const timer = setTimeout(
      () => reject(new Error(`[chromium] no DevTools address within 30 s: ${said.slice(-300)}`)),
      30_000,
    );
    browser.stderr!.on('data', (chunk) => {
      said += chunk;
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(said);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    browser.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`[chromium] ${bin} exited (${code}) before listening: ${said.slice(-300)}`));
    });
    browser.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`[chromium] ${bin} could not start: ${error.message}`));
    });
  });
}

/** Commands with their answers, and every event to the listeners. */
function protocol(socket: WebSocket) {
  let next = 1;
  const waiting = new Map<number, { resolve(result: any): void; reject(error: Error): void; method: string }>();
  const listeners: ((m: Message) => void)[] = [];
  socket.onmessage = (event) => {
    const m = JSON.parse(String(event.data)) as Message;
    const call = m.id === undefined ? undefined : waiting.get(m.id);
    if (call) {
      waiting.delete(m.id!);
      if (m.error) call.reject(new Error(`[chromium] ${call.method}: ${m.error.message}`));
      else call.resolve(m.result);
    } else for (const listen of listeners) listen(m);
  };
  return {
    send(method: string, params: object, sessionId?: string): Promise<any> {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject, method });
        socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      });
    },
    listen(listener: (m: Message) => void): void {
      listeners.push(listener);
    },
  };
}
