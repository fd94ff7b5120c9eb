/**
 * The page of browser.test.ts: an app as a user writes it, bundled by esbuild from
 * @investor-graph/msw/browser (the test points it at a bundle built as `pnpm build` builds the
 * published one) and msw/browser. It starts the worker, then
 * calls the API's origin with fetch and XMLHttpRequest as any front end would, and leaves what it
 * saw in `window.seen` (and on the page, for the screenshot).
 */
import { setupWorker } from 'msw/browser';
import { createBrowserValidator, createInvestorGraphApi } from '@investor-graph/msw/browser';

const base = 'https://api.investorgraph.test';

function xhr(url: string, key: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('GET', url);
    request.setRequestHeader('authorization', `Bearer ${key}`);
    request.onload = () => resolve({ status: request.status, body: JSON.parse(request.responseText) });
    request.onerror = () => reject(new Error(`XHR to ${url} failed`));
    request.send();
  });
}

async function run(): Promise<Record<string, unknown>> {
  const api = await createInvestorGraphApi({ baseUrl: base, dataset: { url: '/dataset/' }, frozen: true });
  // The app's own files pass by the worker; the API's origin is all the handlers answer.
  await setupWorker(...api.handlers).start({ onUnhandledFrame: 'bypass', quiet: true });
  const team = { authorization: `Bearer ${api.keys.team}` };

  // Page through firms by the cursor, with fetch and then with XHR.
  const slugs: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const url: string = `${base}/api/v1/firms?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page: { data: { slug: string }[]; next_cursor: string | null } =
      pages % 2 === 0 ? await (await fetch(url, { headers: team })).json() : (await xhr(url, api.keys.team)).body;
    slugs.push(...page.data.map((f: { slug: string }) => f.slug));
    cursor = page.next_cursor;
    pages++;
  } while (cursor && pages < 4);

  // A trial key meets the changes feed it does not have: 402 with actions (through XHR).
  const feed = await xhr(`${base}/api/v1/changes?since=2026-11-01T00:00:00Z`, api.keys.trial);

  // A burst past the trial's rate: 429 with Retry-After and actions.
  const burst = await Promise.all(
    Array.from({ length: 30 }, () =>
      fetch(`${base}/api/v1/firms?limit=1`, { headers: { authorization: `Bearer ${api.keys.trial}` } }),
    ),
  );
  const limited = burst.find((r) => r.status === 429);

  const account = await (await fetch(`${base}/api/v1/account`, { headers: team })).json();

  // The test clock through the control API, in-process as under Node: a day on, rebuilds applied.
  const before = await (await fetch(`${base}/__control/clock`)).json();
  const advanced = await (
    await fetch(`${base}/__control/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ duration: 'P1D' }),
    })
  ).json();
  // reset(): a fresh state in one call, the same keys, nothing counted.
  await api.reset();
  const afterReset = await (await fetch(`${base}/api/v1/account`, { headers: team })).json();
  const clockAfterReset = await (await fetch(`${base}/__control/clock`)).json();
  // The default dataset generated in the page from its seed serves what the fetched files serve.
  const started = performance.now();
  const generated = await createInvestorGraphApi({ baseUrl: 'https://generated.investorgraph.test', frozen: true });
  const generatedMs = Math.round(performance.now() - started);
  const firstPage = async (of: typeof api) =>
    (
      await of.engine.fetch(
        new Request(`${of === api ? base : 'https://generated.investorgraph.test'}/api/v1/rounds?limit=100`, {
          headers: { authorization: `Bearer ${of.keys.enterprise}` },
        }),
      )
    ).json();
  const [fetched, made] = await Promise.all([firstPage(api), firstPage(generated)]);

  const validator = await createBrowserValidator();
  (window as any).verdicts = (
    cases: { operationId: string; request: Parameters<typeof validator.validateRequest>[1] }[],
  ) => cases.map((c) => validator.validateRequest(c.operationId, c.request));

  return {
    pages,
    slugs,
    feed: {
      status: feed.status,
      code: feed.body.code,
      actions: feed.body.actions.map((a: { type: string }) => a.type),
    },
    burst: burst.map((r) => r.status),
    limited: limited ? { retryAfter: limited.headers.get('retry-after'), body: await limited.json() } : null,
    callsUsed: account.data.usage.calls_used,
    clock: { before: before.now, advanced: advanced.now, applied: advanced.applied, afterReset: clockAfterReset.now },
    callsUsedAfterReset: afterReset.data.usage.calls_used,
    generated: {
      ms: generatedMs,
      sameRows: JSON.stringify(fetched.data) === JSON.stringify(made.data),
      rows: made.data.length,
    },
  };
}

run().then(
  (seen) => {
    (window as any).seen = seen;
    document.body.innerHTML =
      `<h1>Investor Graph API in the browser ` +
      `(MSW)</h1><pre>${JSON.stringify({ ...seen, slugs: `${(seen.slugs as string[]).length} firms` }, null, 2)}</pre>`;
  },
  (error: Error) => {
    (window as any).seen = { error: `${error.message}\n${error.stack}` };
  },
);
