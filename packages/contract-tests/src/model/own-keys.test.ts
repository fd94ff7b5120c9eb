import { describe, expect, test } from 'vitest';
import { sentenceOf } from '../sentences/pointer-sentences.ts';
import { behaviourOnly } from './allowed.ts';
import { ownKeyDifferences } from './own-keys.ts';

const key = (key_id: string, plan: string, last4: string, status = 'active') => ({
  key_id,
  plan,
  prefix: `igk_${plan}_`,
  last4,
  status,
  created_at: '2026-11-20T03:00:00Z',
  expires_at: null,
  revoked_at: null,
});
const account = (...keys: unknown[]) => ({ data: { plan: {}, keys } });
const paired = new Map([['key_aaaaaaaaaaaa', 'key_bbbbbbbbbbbb']]);

describe("an account's keys judged against the model", () => {
  test('the run’s own key listed on another plan is a difference, named by the Account sentence', () => {
    const service = account(key('key_cccccccccccc', 'team', 'zzzz'), key('key_aaaaaaaaaaaa', 'team', 'abcd'));
    const model = account(key('key_bbbbbbbbbbbb', 'enterprise', 'abcd'));
    const found = ownKeyDifferences(service, model, paired);
    expect(found).toEqual([{ pointer: '/data/keys/1/plan', service: 'team', model: 'enterprise' }]);
    expect(sentenceOf(found[0]!.pointer, 'getAccount')).toMatch(/^account\.2: /);
  });

  test('its id, prefix and dates, and the account’s other keys, are the service’s own', () => {
    const other = {
      ...key('key_aaaaaaaaaaaa', 'enterprise', 'abcd'),
      prefix: 'igk_',
      created_at: '2020-01-01T00:00:00Z',
    };
    const service = account(other, key('key_dddddddddddd', 'trial', 'qqqq', 'revoked'));
    const model = account(key('key_bbbbbbbbbbbb', 'enterprise', 'abcd'));
    expect(ownKeyDifferences(service, model, paired)).toEqual([]);
  });

  test('a key the model was never told of, or a list that is not one, is not judged', () => {
    const model = account(key('key_bbbbbbbbbbbb', 'enterprise', 'abcd'));
    expect(ownKeyDifferences(account(key('key_eeeeeeeeeeee', 'team', 'abcd')), model, paired)).toEqual([]);
    expect(ownKeyDifferences({ data: { keys: 'none' } }, model, paired)).toEqual([]);
  });
});

describe('the served contract judged against the model’s', () => {
  const tagSwapped = { pointer: '/tags/0/name', service: 'companies', model: 'firms' };
  const servers = { pointer: '/servers/0/url', service: 'https://api.example', model: 'http://model.invalid' };
  const on = (sameDocument: boolean) => ({ operationId: 'getOpenApiDocument', hasData: true, sameDocument });

  test('of the kit’s version, it is compared whole but its servers, each difference named by Deprecation', () => {
    expect(behaviourOnly([tagSwapped, servers], on(true))).toEqual([tagSwapped]);
    expect(sentenceOf(tagSwapped.pointer, 'getOpenApiDocument')).toMatch(/^deprecation\.3: .*`info.version`/);
  });

  test('of another version, it is left to the diff and the rules', () => {
    expect(behaviourOnly([tagSwapped, servers], on(false))).toEqual([]);
  });
});
