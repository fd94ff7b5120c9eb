/**
 * The control client's behaviour, once, for every way to a mock: the HTTP mock on loopback runs it
 * (packages/mock/src/control-client.test.ts) and the MSW handlers in-process do
 * (packages/msw/src/control-client.test.ts), as hono runs one router suite for every router. Every
 * call of every case is held to the control API's OpenAPI document by prism-http on the way
 * (control-validator.test-support.ts); a case that sends what the document refuses on purpose
 * takes those findings out itself and names them. An adapter may skip a case only with a reason.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createControlClient, type ControlClient, type ControlFetch } from './client.ts';
import type { ControlCaseContext, ControlSetup, ControlTarget } from './client-case-context.test-support.ts';
import { validatingFetch } from './control-validator.test-support.ts';
import { AS_OF, controlCases } from './client-case-list.test-support.ts';

export type { ControlCaseContext, ControlSetup, ControlTarget } from './client-case-context.test-support.ts';

export function runControlClientCases(options: { name: string; setup: ControlSetup; skip?: Record<string, string> }) {
  const { name, setup, skip = {} } = options;
  describe(name, () => {
    let target: ControlTarget;
    let control: ControlClient;
    const findings: string[] = [];
    const issued: string[] = [];
    const shown: string[] = [];

    beforeAll(async () => {
      target = await setup({ now: AS_OF });
      // Every answer's text is kept but createKey's, the one place a key may be shown.
      const recording: ControlFetch = async (url, init) => {
        const response = await target.transport(url, init);
        if (!(init.method === 'POST' && new URL(url).pathname === '/__control/keys'))
          shown.push(await response.clone().text());
        return response;
      };
      control = createControlClient({ baseUrl: target.baseUrl, fetch: validatingFetch(recording, findings) });
    });
    afterAll(async () => {
      await target?.close();
    });
    afterEach(() => {
      const found = findings.splice(0);
      expect(found, "every exchange keeps the control API's document").toEqual([]);
    });

    const context: ControlCaseContext = {
      it: (title, body) => {
        if (skip[title]) test.skip(`${title} (skipped: ${skip[title]})`, body);
        else test(title, body);
      },
      get control() {
        return control;
      },
      get target() {
        return target;
      },
      sentOffDocument() {
        const sent = findings.filter((f) => / request /.test(f));
        findings.splice(0, findings.length, ...findings.filter((f) => !sent.includes(f)));
        return sent;
      },
      issued,
      shown,
    };
    controlCases(context);
  });
}
