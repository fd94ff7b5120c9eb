/**
 * `/docs`: the contract as an interactive reference (Scalar's standalone bundle, from the npm
 * registry), so it works with no network. It wraps the served fetch in the Node server only: the
 * engine stays browser-safe for the MSW handlers.
 *
 * The published package carries the one file it serves, copied beside this module when it is built
 * (`scalar/standalone.js`, with `scalar/NOTICE`), and does not depend on @scalar/api-reference: that
 * package brings ~150 MB of Vue and editor code a user never runs here, and an install script npm
 * warns about. In the workspace the file comes from the devDependency.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pathUnder } from '@investor-graph/engine/adapter';
import type { Answer } from '@investor-graph/engine/adapter';
import type { Wrapper } from '@investor-graph/engine/adapter';

const shipped = new URL('./scalar/standalone.js', import.meta.url);
// The package's exports name no browser bundle, so it is found beside its main entry.
const bundleFile = existsSync(shipped)
  ? shipped
  : new URL('./browser/standalone.js', import.meta.resolve('@scalar/api-reference'));

/**
 * Nothing but this origin: Scalar defaults to fonts, telemetry and a request proxy on scalar.com,
 * which the configuration below turns off; the policy makes any that is left a console error
 * (and so a failing docs test) instead of a silent call out.
 */
const policy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
].join('; ');

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Investor Graph API reference (mock)</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="app"></div>
<script src="/docs/scalar.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// Try-it calls go to this mock (whatever its port), never through scalar.com's proxy.
const init = `Scalar.createApiReference('#app', {
  url: '/api/v1/openapi.json',
  servers: [{ url: window.location.origin, description: 'this mock' }],
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
  defaultOpenAllTags: true,
  persistAuth: false,
  externalUrls: { proxyUrl: '', registryUrl: '', dashboardUrl: '', apiBaseUrl: '' },
});
`;

let bundle: Promise<Uint8Array> | undefined;

/** A URL under /docs: told apart on the text, so the API's calls pay for no URL parse here. */
const DOCS_URL = pathUnder('/docs');

function asset(body: string | Uint8Array, type: string, request: Request): Answer {
  const headers = {
    'content-type': type,
    'content-security-policy': policy,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  };
  return { status: 200, headers, body: request.method === 'HEAD' ? null : body };
}

/** The docs page, a wrapper of the engine's list: answers `/docs` and its two scripts; the rest goes to `next`. */
export const withDocs: Wrapper = (next) => {
  return async (request, context) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !DOCS_URL.test(request.url))
      return next(request, context);
    const path = new URL(request.url).pathname;
    if (path === '/docs' || path === '/docs/') return asset(page, 'text/html; charset=utf-8', request);
    if (path === '/docs/init.js') return asset(init, 'text/javascript; charset=utf-8', request);
    if (path === '/docs/scalar.js') {
      bundle ??= readFile(bundleFile).then((b) => new Uint8Array(b));
      return asset(await bundle, 'text/javascript; charset=utf-8', request);
    }
    return next(request, context);
  };
};
