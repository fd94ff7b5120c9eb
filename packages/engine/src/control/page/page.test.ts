/**
 * The control page as the engine serves it (issue #54): one self-contained document whose policy
 * names its inline script and style by hash and lets it fetch nothing but its own origin, whose
 * script calls only the control API's own operations, and which answers only where the control
 * API answers. The page at work in a browser is the mock's control-page.test.ts.
 */
import { createHash } from 'node:crypto';
import { Script } from 'node:vm';
import { expect, test } from 'vitest';
import { createContractValidator } from '@investor-graph/contract';
import { collectDataset, defaultDataset } from '@investor-graph/dataset-tools';
import { createEngine } from '../../engine.ts';
import { controlDocument } from '../document.ts';
import { controlPage, controlPageHtml } from './page.ts';

const validator = await createContractValidator();
const dataset = collectDataset({ seed: 'control-page', scale: 300, asOf: defaultDataset.asOf });

/** The policy's directives by name. */
const directives = (policy: string): Map<string, string> =>
  new Map(
    policy.split(';').map(
      (d) =>
        d
          .trim()
          .split(/\s+(.*)/s)
          .slice(0, 2) as [string, string],
    ),
  );

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const inline = (tag: string): string[] =>
  [...controlPageHtml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1]!);

test(
  'the page is one document whose only script and style are inline, named by their hashes ' +
    'in a policy that lets it reach nothing but its own origin',
  async () => {
    const answer = await controlPage();
    const policy = directives(answer.headers['content-security-policy']!);
    expect(policy.get('default-src')).toBe("'none'");
    expect(policy.get('connect-src')).toBe("'self'");
    expect(policy.get('frame-ancestors')).toBe("'none'");
    expect(policy.get('img-src')).toBe('data:');
    expect([...controlPageHtml.matchAll(/<script\b/g)]).toHaveLength(1);
    expect([...controlPageHtml.matchAll(/<style\b/g)]).toHaveLength(1);
    expect(policy.get('script-src')).toBe(sha256(inline('script')[0]!));
    expect(policy.get('style-src')).toBe(sha256(inline('style')[0]!));
    expect(answer.headers['content-security-policy']).not.toMatch(/unsafe-|\*/);
    // Nothing to load from anywhere: no src, no URL, no href but the data: icon, no inline style attribute.
    expect(controlPageHtml).not.toMatch(/\ssrc=|https?:|\/\/[a-z]|\sstyle=|\son[a-z]+=/i);
    expect([...controlPageHtml.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual(['data:,']);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
  },
);

test("the page's script parses, and every path it calls is an operation of the control API's document", () => {
  const script = inline('script')[0]!;
  // Compiled, not run: a syntax error throws here.
  expect(() => new Script(script)).not.toThrow();
  const called = [...script.matchAll(/'(\/__control\/[^'?]*)/g)].map((m) => m[1]!);
  const templates = Object.keys(controlDocument.paths).map((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`));
  expect(called.length).toBeGreaterThan(6);
  // A literal that ends in "/" is a path an id is added to ('/__control/incidents/' + id).
  const unknown = called.filter((path) => !templates.some((t) => t.test(path.endsWith('/') ? `${path}x` : path)));
  expect(unknown).toEqual([]);
  // Only fetch, to paths of this origin: no other way out (XMLHttpRequest, beacons, sockets, new windows).
  expect(script).not.toMatch(/XMLHttpRequest|sendBeacon|WebSocket|EventSource|window\.open|innerHTML|eval\(/);
});

function setup(adminToken?: string) {
  const engine = createEngine({ dataset, validator, frozen: true, ...(adminToken ? { adminToken } : {}) });
  const get = (path: string, headers: Record<string, string> = {}, loopback = true) =>
    engine.fetch(new Request(`http://127.0.0.1:4010${path}`, { headers: { host: '127.0.0.1:4010', ...headers } }), {
      clientAddress: loopback ? '127.0.0.1' : '203.0.113.7',
      loopback,
    });
  return { engine, get };
}

test('/__control/ and /__control answer the page to a loopback browser, kept by no cache', async () => {
  const { get } = setup();
  for (const path of ['/__control/', '/__control']) {
    const page = await get(path, { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' });
    expect(page.status, path).toBe(200);
    expect(page.headers.get('cache-control'), path).toBe('no-store');
    expect(page.headers.get('content-security-policy'), path).toContain("default-src 'none'");
    expect(await page.text(), path).toBe(controlPageHtml);
  }
});

test(
  'the page is refused as every control call is: another address, another site, a Host that does not ' +
    'name the mock, and any method but GET',
  async () => {
    const { get } = setup();
    const refused = async (response: Response) => [response.status, ((await response.json()) as { code: string }).code];
    expect(await refused(await get('/__control/', {}, false))).toEqual([403, 'control_forbidden']);
    expect(await refused(await get('/__control/', { origin: 'http://evil.example' }))).toEqual([
      403,
      'control_forbidden',
    ]);
    expect(await refused(await get('/__control/', { 'sec-fetch-site': 'cross-site' }))).toEqual([
      403,
      'control_forbidden',
    ]);
    expect(await refused(await get('/__control/', { host: 'rebound.example:4010' }))).toEqual([
      403,
      'control_forbidden',
    ]);
    const { engine } = setup();
    const posted = await engine.fetch(
      new Request('http://127.0.0.1:4010/__control/', {
        method: 'POST',
        headers: { host: '127.0.0.1:4010', 'content-type': 'application/json' },
        body: '{}',
      }),
      { clientAddress: '127.0.0.1', loopback: true },
    );
    expect(await refused(posted)).toEqual([404, 'route_not_found']);
  },
);

test(
  'started with an admin token, the mock still shows the page to a loopback ' + 'browser, which cannot send it',
  async () => {
    const { get } = setup('an-admin-token-0123456789');
    expect((await get('/__control/')).status).toBe(200);
    expect((await get('/__control/', {}, false)).status).toBe(403);
    expect((await get('/__control/', { authorization: 'Bearer an-admin-token-0123456789' }, false)).status).toBe(200);
  },
);
