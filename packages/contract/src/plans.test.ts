import { expect, test } from 'vitest';
import { checkLadder, firstPlanWith, nextPlanUp, plans } from './plans.ts';

test(`the upgrade ladder climbs from the trial to a top plan, and a missing feature names the first plan up that has \
it`, () => {
  expect(() => checkLadder(plans)).not.toThrow();
  const ladder = [];
  for (let at: ReturnType<typeof nextPlanUp> = 'trial'; at !== null; at = nextPlanUp(at)) ladder.push(at);
  expect(ladder.at(-1)).toBe('enterprise');
  expect(plans[firstPlanWith('changes_feed')].changes_feed).toBe(true);
  expect(plans[firstPlanWith('exports')].exports).toBe(true);
});

test('a ladder naming no plan, or looping, is refused at load', () => {
  expect(() => checkLadder({ trial: { next_plan_up: 'teem' }, team: { next_plan_up: null } })).toThrow(
    /next_plan_up "teem" is not a plan/,
  );
  expect(() => checkLadder({ trial: { next_plan_up: 'team' }, team: { next_plan_up: 'trial' } })).toThrow(/loops back/);
});
