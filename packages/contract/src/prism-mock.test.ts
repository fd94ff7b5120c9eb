// @module-tag servers
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '@investor-graph/cli';
import { contractPath } from './generate.ts';
import { createContractValidator, openapiDocument, operations, resolveRef } from './index.ts';

// `prism mock contracts/openapi.yaml` must serve the contract as a peer (the benchmarks and the
// contract tests use it so): every operation answers from its examples and the answers validate.

let prism: ChildProcess;
let base: string;
const validator = await createContractValidator();

beforeAll(async () => {
  const cli = join(
    dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')),
    'dist/index.js',
  );
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  prism = spawn(process.execPath, [cli, 'mock', '-h', '127.0.0.1', '-p', String(port), contractPath], {
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 45_000;
  for (;;) {
    try {
      await fetch(`${base}/api/v1/openapi.json`);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error('prism mock did not start within 45 s');
      await new Promise((r) => setTimeout(r, 250));
    }
  }
});

afterAll(() => {
  prism?.kill();
});

function exampleUrl(path: string, parameters: unknown[]): string {
  let url = path;
  const query = new URLSearchParams();
  for (const p of parameters.map(resolveRef) as { name: string; in: string; example?: unknown; required?: boolean }[]) {
    if (p.in === 'path') url = url.replace(`{${p.name}}`, String(p.example));
    else if (p.in === 'query' && p.required) query.set(p.name, String(p.example));
  }
  return query.size ? `${url}?${query}` : url;
}

test('prism mock answers every operation of the contract with a documented success that validates', async () => {
  expect(operations).toHaveLength(26);
  for (const op of operations) {
    const item = (openapiDocument.paths as Record<string, Record<string, { parameters?: unknown[] }>>)[op.path]!;
    const url = exampleUrl(op.path, item[op.method.toLowerCase()]!.parameters ?? []);
    const response = await fetch(base + url, {
      method: op.method,
      headers: { authorization: 'Bearer igk_team_example', 'content-type': 'application/json' },
      ...(op.method === 'POST' ? { body: JSON.stringify({ email: 'integrations@example.com' }) } : {}),
    });
    expect(response.status, `${op.method} ${url}`).toBeLessThan(300);
    const type = response.headers.get('content-type') ?? '';
    const body = type.includes('json') ? await response.json() : await response.text();
    const headers = Object.fromEntries(response.headers);
    const errors = validator
      .validateResponse(op.operationId, { status: response.status, headers, body })
      .filter((v) => v.severity === 'error');
    expect(errors, `${op.method} ${url}`).toEqual([]);
  }
});

test('prism mock enforces bearer security on data calls', async () => {
  const response = await fetch(`${base}/api/v1/firms`);
  expect(response.status).toBe(401);
});
