/**
 * Conformance cases of incidents (`/__control/incidents`): what each adapter does with an incident
 * the engine decided, the connection cut and the slow body above all, which only the adapter can
 * carry out. Every incident names a fresh key, so no other case meets it, and is cleared after.
 */
import { expect } from 'vitest';
import { createContractValidator, parseBody } from '@investor-graph/contract';
import type { ConformanceContext } from './context.ts';

const validator = await createContractValidator();

export const incidentCaseTitles = {
  outage: 'an outage answers the documented 503 with Retry-After, counting nothing, and is journaled',
  reset: "a reset cuts the connection: the client's call fails with no answer, and the next is served",
  slow: 'a slow body arrives whole, no faster than its bytes a second',
  latency: 'latency holds a call back, then serves and counts it',
};

export function incidentCases(c: ConformanceContext): void {
  /** A call outside the suite's rules (a 5xx breaks them by design), its answer held to the contract alone. */
  async function raw(path: string, key: string): Promise<{ status: number; headers: Headers; body: any }> {
    const response = await c.target.fetch(`${c.target.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = parseBody(await response.text(), response.headers.get('content-type'));
    return { status: response.status, headers: response.headers, body };
  }
  const incident = (body: Record<string, unknown>) => c.control('/incidents', body);
  const clear = () => c.control('/incidents', undefined, 'DELETE');

  c.it(incidentCaseTitles.outage, async () => {
    const { key, key_id } = await c.newKey('team');
    const made = await incident({
      kind: 'outage',
      match: { key_id, operation: 'listFirms' },
      calls: 1,
      retry_after: 2,
    });
    try {
      const down = await raw('/api/v1/firms?limit=1', key);
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('2');
      expect(down.body.code).toBe('service_unavailable');
      const findings = validator.validateResponse('listFirms', {
        status: down.status,
        headers: Object.fromEntries(down.headers),
        body: down.body,
      });
      expect(findings).toEqual([]);
      const after = await c.call('/api/v1/account', { key });
      expect(after.body.data.usage.calls_used, 'the outage counted nothing').toBe(0);
      const { entries } = await c.control(`/journal?key_id=${key_id}&operation=listFirms`);
      expect(entries).toMatchObject([{ status: 503, incident: made.id, calls_counted: 0 }]);
    } finally {
      await clear();
    }
  });

  c.it(incidentCaseTitles.reset, async () => {
    const { key, key_id } = await c.newKey('team');
    await incident({ kind: 'reset', match: { key_id }, calls: 1 });
    try {
      await expect(
        c.target.fetch(`${c.target.baseUrl}/api/v1/firms?limit=1`, { headers: { authorization: `Bearer ${key}` } }),
      ).rejects.toThrow();
      expect((await c.call('/api/v1/firms?limit=1', { key })).status).toBe(200);
    } finally {
      await clear();
    }
  });

  c.it(incidentCaseTitles.slow, async () => {
    const { key, key_id } = await c.newKey('business');
    const whole = await c.call('/api/v1/firms?limit=5', { key });
    const rate = Math.ceil(whole.bytes.length / 0.6);
    await incident({ kind: 'slow_body', match: { key_id }, bytes_per_second: rate });
    try {
      const started = performance.now();
      const slow = await raw('/api/v1/firms?limit=5', key);
      const tookMs = performance.now() - started;
      expect(slow.status).toBe(200);
      expect(slow.body.data).toEqual(whole.body.data);
      // Ten pieces a second, the first at once: the rest can come no sooner than their pauses.
      expect(tookMs).toBeGreaterThanOrEqual(((whole.bytes.length - rate / 10) / rate) * 1000 - 50);
    } finally {
      await clear();
    }
  });

  c.it(incidentCaseTitles.latency, async () => {
    const { key, key_id } = await c.newKey('team');
    await incident({ kind: 'latency', match: { key_id }, latency_ms: 300 });
    try {
      const started = performance.now();
      const answer = await c.call('/api/v1/firms?limit=1', { key });
      expect(performance.now() - started).toBeGreaterThanOrEqual(300);
      expect(answer.status).toBe(200);
      expect((await c.call('/api/v1/account', { key })).body.data.usage.calls_used).toBe(1);
    } finally {
      await clear();
    }
  });
}
