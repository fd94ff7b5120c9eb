/**
 * The control plane's own page, `GET /__control/` (and `/__control`): the journal as it grows, the
 * keys with their usage and balances, the clock with buttons to move it, and the incidents, for a
 * person watching the mock while an app or its tests run. It is a control call like any other,
 * under the same guard (loopback, same origin, a Host that names the mock), and one self-contained
 * document: its style and script are inline, allowed by their SHA-256 hashes, and its policy lets
 * it reach nothing but the mock's own origin, where it calls the control API. No Node API: the
 * MSW handlers answer it as the Node server does.
 */
import type { Answer } from '../../answer.ts';
import { incidentKindNames, incidentKinds } from '../../incidents/kinds.ts';
import { pageBody } from './body.ts';
import { pollScript } from './poll-script.ts';
import { pageScript } from './script.ts';
import { pageStyle } from './style.ts';

/** What the form needs of each incident kind: the parameters it takes, each with its default (null: required). */
const kinds = Object.fromEntries(
  incidentKindNames.map((kind) => [kind, { parameters: incidentKinds[kind].parameters }]),
);

/** The page's one script, as inline text (its hash is in the policy). `<` escaped: no text of it ends the element. */
export const controlPageScript = `(() => {
'use strict';
const kinds = ${JSON.stringify(kinds).replace(/</g, '\\u003c')};
${pageScript}
${pollScript}
})();
`;

/** The page's one style sheet, as inline text (its hash is in the policy). */
export const controlPageStyle = pageStyle;

/** The page as served: no URL in it but the data: icon, which keeps the browser from asking for /favicon.ico. */
export const controlPageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Investor Graph mock: control</title>
<link rel="icon" href="data:,">
<style>${controlPageStyle}</style>
</head>
<body>
${pageBody}
<script>${controlPageScript}</script>
</body>
</html>
`;

/** The base64 SHA-256 of a text's UTF-8 bytes, as a policy names an inline script or style (WebCrypto: no Node API). */
async function sha256Base64(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Nothing but this page's own script and style, and fetches to its own origin: no other script,
 * frame, font, image (but the data: icon), form target or base URL, and no page may frame it.
 */
async function pagePolicy(): Promise<string> {
  const [script, style] = await Promise.all([sha256Base64(controlPageScript), sha256Base64(controlPageStyle)]);
  return [
    "default-src 'none'",
    `script-src 'sha256-${script}'`,
    `style-src 'sha256-${style}'`,
    "connect-src 'self'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

let policy: Promise<string> | undefined;

/** The page's answer (the control plane adds `cache-control: no-store`, as to every control answer). */
export async function controlPage(): Promise<Answer> {
  policy ??= pagePolicy();
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': await policy,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  };
  return { status: 200, headers, body: controlPageHtml };
}
