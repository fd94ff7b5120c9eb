import { expect, test } from 'vitest';
import { meteringTable } from '@investor-graph/engine/adapter';
import { meteringLua, scripts } from './scripts.ts';

test("the Lua's metering decision is the table's rows, one branch each in order, and admit-and-charge runs it", () => {
  const lua = meteringLua();
  const branches = lua.split('\n').filter((line) => /^(if|elseif|else)\b/.test(line));
  expect(branches.map((line) => /'([a-z_]*)'/.exec(line)?.[1])).toEqual(meteringTable.map((r) => r.refusal ?? ''));
  expect(branches[0]).toBe("if revoked then refusal, cost = 'revoked_key', 0");
  expect(branches).toContain("elseif counted and trial and ended then refusal, cost = 'trial_expired', 0");
  expect(branches.at(-1)).toBe("else refusal, cost = '', price");
  expect(scripts.admitAndCharge).toContain(lua);
});

test('a table whose row fitting every call is not its last is refused, not made into Lua that skips rows', () => {
  const [first, ...rest] = meteringTable;
  expect(() => meteringLua([rest.at(-1)!, first!, ...rest.slice(0, -1)])).toThrow(/only the last row fits every call/);
  expect(meteringLua([{ when: { short: false }, refusal: null, cost: 'price' }])).toContain('if not short then');
});

test("the token bucket's step is the engine's formulas as Lua, and take-token runs it", async () => {
  const { bucketLua } = await import('@investor-graph/engine/adapter');
  const lua = bucketLua();
  expect(lua.split('\n').map((line) => line.split(' = ')[0])).toEqual([
    'local refilled',
    'local wait',
    'local left',
    'local fullAfterMs',
  ]);
  expect(lua).toContain(
    'local refilled = math.min(capacity, (tokens + ((math.max(0, elapsedMs) / 1000) * perSecond)))',
  );
  expect(scripts.takeToken).toContain(lua);
});
