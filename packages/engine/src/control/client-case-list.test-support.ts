/**
 * The cases of the control client's suite (client-cases.test-support.ts runs them against each
 * adapter): each call of the client, what a test relies on it for, and its refusals.
 */
import { expect } from 'vitest';
import { VerificationError } from '../journal/verify.ts';
import { ControlError } from './control-error.ts';
import { controlDocument } from './document.ts';
import type { ControlCaseContext } from './client-case-context.test-support.ts';
import { incidentCases } from './client-incident-cases.test-support.ts';

export const AS_OF = '2026-11-20T03:00:00Z';
const DAY = 86_400_000;

/** The error a promise rejects with, for a case to assert on (its message kept for the key search). */
export async function refusal(context: ControlCaseContext, promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => new Error('expected a refusal, the call succeeded'),
    (e: unknown) => e as Error,
  );
  context.shown.push(`${error.message}\n${error.stack}`);
  return error;
}

/** A data call's status and problem code. */
async function answered(response: Promise<Response>): Promise<[number, string | undefined]> {
  const got = await response;
  const body = (await got.json()) as { code?: string };
  return [got.status, body.code];
}

export function controlCases(c: ControlCaseContext): void {
  const it = (title: string, body: () => Promise<void>): void => c.it(title, body);
  const newKey = async (...args: Parameters<typeof c.control.createKey>) => {
    const issued = await c.control.createKey(...args);
    c.issued.push(issued.key);
    return issued;
  };

  it('openapi() answers the document the engine carries', async () => {
    expect(await c.control.openapi()).toEqual(controlDocument);
  });

  it('a key made with createKey serves data calls, and state() lists it by id, never by its text', async () => {
    const issued = await newKey({ plan: 'team' });
    expect(issued).toMatchObject({ plan: 'team', status: 'active', key: expect.stringMatching(/^igk_team_/) });
    expect(await answered(c.target.data('/api/v1/firms?limit=2', issued.key))).toEqual([200, undefined]);
    const state = await c.control.state();
    expect(state.keys?.find((k) => k.key_id === issued.key_id)?.usage.calls_used).toBe(1);
    expect(JSON.stringify(state)).not.toContain(issued.key);
  });

  it('revokeKey turns the key away with 401 revoked_key', async () => {
    const issued = await newKey({ plan: 'business' });
    expect((await c.control.revokeKey(issued.key_id)).status).toBe('revoked');
    expect(await answered(c.target.data('/api/v1/firms?limit=1', issued.key))).toEqual([401, 'revoked_key']);
  });

  it("topUp adds prepaid rows to a pay-as-you-go key; another plan's key is a ControlError naming rows", async () => {
    const payg = await newKey({ plan: 'payg', prepaid_rows: 10 });
    expect((await c.control.topUp(payg.key_id, 90)).balance_rows).toBe(100);
    const team = await newKey({ plan: 'team' });
    const refused = await refusal(c, c.control.topUp(team.key_id, 5));
    expect(refused).toBeInstanceOf(ControlError);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_body', errors: [{ pointer: '/rows' }] });
  });

  it("setUsage reaches a trial's last call: the next one is 402 trial_exhausted", async () => {
    const trial = await newKey({ plan: 'trial' });
    const set = await c.control.setUsage(trial.key_id, 1000);
    expect([set.usage.calls_used, set.usage.calls_remaining, set.status]).toEqual([1000, 0, 'exhausted']);
    expect(await answered(c.target.data('/api/v1/firms?limit=1', trial.key))).toEqual([402, 'trial_exhausted']);
  });

  it('a key_id no key has is a ControlError 404 not_found', async () => {
    const refused = await refusal(c, c.control.revokeKey('key_000000000000'));
    expect(refused).toBeInstanceOf(ControlError);
    expect(refused).toMatchObject({ status: 404, code: 'not_found' });
    expect(refused.message).toBe(
      '[investor-graph mock] POST /__control/keys/key_000000000000/revoke: 404 No key has that key_id. (not_found)',
    );
  });

  it('a body the mock refuses is a ControlError naming each wrong member, and the key sent is not in it', async () => {
    const own = 'my-own-key-text-0001';
    const refused = await refusal(c, c.control.createKey({ plan: 'gold' as 'team', key: own, prepaid_rows: -1 }));
    expect(refused).toMatchObject({ status: 400, code: 'invalid_body', errors: [{ pointer: '/plan' }] });
    expect(refused.message).not.toContain(own);
    // The document refuses it too: the request is off it where the mock said.
    expect(c.sentOffDocument()).toEqual(
      expect.arrayContaining([expect.stringContaining('body.plan'), expect.stringContaining('body.prepaid_rows')]),
    );
  });

  it('journal, clearJournal, verify: a failed verification throws a VerificationError with near misses', async () => {
    await c.control.clearJournal();
    const { key, key_id } = await newKey({ plan: 'team' });
    for (let i = 0; i < 2; i++) await c.target.data('/api/v1/firms?limit=3', key);
    const entries = await c.control.journal({ key_id });
    expect(entries.map((e) => [e.operation, e.status, e.query.limit])).toEqual([
      ['listFirms', 200, '3'],
      ['listFirms', 200, '3'],
    ]);
    expect((await c.control.verify({ operation: 'listFirms', key_id }, 2)).matched).toBe(2);
    const missed = await refusal(c, c.control.verify({ operation: 'listFirms', query: { limit: '50' } }, { min: 1 }));
    expect(missed).toBeInstanceOf(VerificationError);
    expect(missed.message).toContain('query.limit: expected 50, was 3');
    expect((await c.control.clearJournal()).cleared).toBe(2);
    expect(await c.control.journal()).toEqual([]);
  });

  it('clock, setClock and advanceClock move the simulated time; a trial is expired past its 7 days', async () => {
    const start = Date.parse((await c.control.clock()).now);
    const trial = await newKey({ plan: 'trial' });
    const moved = await c.control.advanceClock('P8D');
    expect(Date.parse(moved.now) - start).toBe(8 * DAY);
    expect(await answered(c.target.data('/api/v1/firms?limit=1', trial.key))).toEqual([402, 'trial_expired']);
    expect(Date.parse((await c.control.advanceClock({ seconds: 60 })).now) - start).toBe(8 * DAY + 60_000);
    const set = await c.control.setClock({ now: new Date(start + 9 * DAY).toISOString(), frozen: true });
    expect([set.now, set.frozen]).toEqual([new Date(start + 9 * DAY).toISOString(), true]);
    const backwards = await refusal(c, c.control.setClock({ now: new Date(start).toISOString() }));
    expect(backwards).toMatchObject({ status: 400, code: 'invalid_body', errors: [{ pointer: '/now' }] });
  });

  it('rebuild runs the rebuilds due now and says what is left', async () => {
    const rebuilt = await c.control.rebuild();
    expect(rebuilt.applied).toEqual([]);
    expect(rebuilt.pending_rebuilds).toBe((await c.control.state()).pending_rebuilds);
  });

  it('the client as the adapter gives it answers as the one these cases drive', async () => {
    expect(await c.target.native.clock()).toEqual(await c.control.clock());
    const ids = async (client: typeof c.control) => (await client.state()).keys?.map((k) => k.key_id);
    expect(await ids(c.target.native)).toEqual(await ids(c.control));
  });

  incidentCases(c, {
    it,
    newKey: (plan) => newKey({ plan }),
    refusal: (promise) => refusal(c, promise),
  });

  it("no answer but createKey's, and no error, held any key the cases were shown", async () => {
    expect(c.issued.length).toBeGreaterThan(5);
    for (const key of c.issued) expect(c.shown.filter((text) => text.includes(key))).toEqual([]);
  });
}
