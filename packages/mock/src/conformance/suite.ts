/**
 * The mock's behaviour, once, for every adapter: the Node server runs it over loopback and the MSW
 * handlers run it in-process. Every response any case sees is held to every rule of
 * @investor-graph/contract/rules (the contract through prism-http among them), the same checks the
 * contract tests and the proxy run. An adapter may skip a case only with a reason.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkExchange, createContractValidator, PageTracker, parseBody, type PlanId } from '@investor-graph/contract';
import {
  AS_OF,
  type Answer,
  type ConformanceContext,
  type ConformanceSetup,
  type ConformanceTarget,
} from './context.ts';
import { dataCases } from './data.ts';
import { httpCases } from './http.ts';
import { incidentCases } from './incidents.ts';
import { keyCases } from './keys.ts';
import { meteringCases } from './metering.ts';
import { readingCases } from './reading.ts';

export type { Answer, ConformanceSetup, ConformanceTarget } from './context.ts';
export { incidentCaseTitles } from './incidents.ts';

export interface ConformanceOptions {
  name: string;
  setup: ConformanceSetup;
  /** Case title -> why this adapter cannot run it. */
  skip?: Record<string, string>;
}

const validator = await createContractValidator();

export function runConformance(options: ConformanceOptions): void {
  const { name, setup, skip = {} } = options;

  describe(name, () => {
    let target: ConformanceTarget;
    const findings: string[] = [];
    const walks = new PageTracker();

    beforeAll(async () => {
      target = await setup({ now: AS_OF });
    });
    afterAll(async () => {
      await target?.close();
    });

    const it = (title: string, body: () => void | Promise<void>, timeout?: number): void => {
      if (skip[title]) test.skip(`${title} (skipped: ${skip[title]})`, body);
      else test(title, body, timeout);
    };

    /** A call through the adapter; its answer is validated against the contract on the way. */
    async function call(
      path: string,
      init: RequestInit & { key?: string | null } = {},
      on: ConformanceTarget = target,
    ): Promise<Answer> {
      const headers = new Headers(init.headers);
      if (init.key) headers.set('authorization', `Bearer ${init.key}`);
      const response = await on.fetch(`${on.baseUrl}${path}`, { ...init, headers });
      const bytes = new Uint8Array(await response.arrayBuffer());
      const body = parseBody(new TextDecoder().decode(bytes), response.headers.get('content-type'));
      // Stricter than the bad-input-no-5xx rule: the mock never fails, whatever it is sent.
      expect(response.status, `${init.method ?? 'GET'} ${path} must never be a 5xx`).toBeLessThan(500);
      // Every rule of @investor-graph/contract/rules (the contract, problem+json, actions, the
      // envelope, page limits, people data, cursor walks...) holds for every answer, control ones too.
      const exchange = {
        method: init.method ?? 'GET',
        url: `${on.baseUrl}${path}`,
        requestHeaders: Object.fromEntries(headers),
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body,
      };
      const found = checkExchange(validator, exchange, walks).map(
        (f) => `${exchange.method} ${path} ${f.rule}: ${f.message}`,
      );
      findings.push(...found);
      expect(found, `${path} keeps every rule`).toEqual([]);
      return { status: response.status, headers: response.headers, body, bytes };
    }

    async function control(
      path: string,
      body?: unknown,
      method = body === undefined ? 'GET' : 'POST',
      on = target,
    ): Promise<any> {
      const answer = await call(
        `/__control${path}`,
        {
          method,
          ...(body === undefined
            ? {}
            : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
        },
        on,
      );
      expect(answer.status, `control ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      return answer.body;
    }

    /** A fresh key of a plan: each test gets its own rate bucket and counters. */
    async function newKey(plan: PlanId, prepaidRows?: number, on = target): Promise<{ key: string; key_id: string }> {
      return control(
        '/keys',
        { plan, ...(prepaidRows === undefined ? {} : { prepaid_rows: prepaidRows }) },
        'POST',
        on,
      );
    }

    /** A call that honours 429 Retry-After as a well-behaved client does (at most three waits). */
    async function politely(
      path: string,
      init: RequestInit & { key?: string | null } = {},
      on: ConformanceTarget = target,
    ): Promise<Answer> {
      for (let attempt = 0; ; attempt++) {
        const answer = await call(path, init, on);
        if (answer.status !== 429 || attempt === 3) return answer;
        await new Promise((r) => setTimeout(r, Number(answer.headers.get('retry-after')) * 1000));
      }
    }

    /** Walks a list to its end and returns every row. */
    async function walk(path: string, key: string, limit: number, on: ConformanceTarget = target): Promise<any[]> {
      const rows: any[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 10_000; page++) {
        const sep = path.includes('?') ? '&' : '?';
        const answer = await politely(
          `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { key },
          on,
        );
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(answer.body.data.length).toBeLessThanOrEqual(limit);
        rows.push(...answer.body.data);
        cursor = answer.body.next_cursor;
        if (cursor === null) return rows;
        expect(answer.body.data.length, 'a page before the end is full').toBe(limit);
      }
      throw new Error('the walk did not end');
    }

    const c: ConformanceContext = {
      it,
      call,
      control,
      newKey,
      politely,
      walk,
      setup,
      findings,
      walks,
      get target() {
        return target;
      },
    };
    readingCases(c);
    httpCases(c);
    dataCases(c);
    keyCases(c);
    meteringCases(c);
    incidentCases(c);

    it('every rule held for every response in this run', () => {
      expect(findings).toEqual([]);
    });
  });
}
