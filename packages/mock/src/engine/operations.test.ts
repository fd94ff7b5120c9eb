import { expect, test } from 'vitest';
import { operations as contractOperations } from '@investor-graph/contract/document';
import { plans } from '@investor-graph/contract/plans';
import { checkFeature, operations } from './operations.ts';

/** The two operations answered before a key is looked at (engine.ts), so not in the table. */
const keyless = ['createTrialKey', 'getOpenApiDocument'];

test('the operation table has one entry for each operation of the contract that takes a key, and no other', () => {
  const withKey = contractOperations.map((o) => o.operationId).filter((id) => !keyless.includes(id)).sort();
  expect(Object.keys(operations).sort()).toEqual(withKey);
});

test('only the account call is free; the changes feed and the dumps need their plan feature, and a plan without it meets a 402 naming a plan with it', () => {
  expect(Object.entries(operations).filter(([, o]) => !o.counted).map(([id]) => id)).toEqual(['getAccount']);
  expect(() => checkFeature(operations.listChanges!, plans.trial)).toThrowError(expect.objectContaining({ code: 'plan_feature_unavailable' }));
  expect(() => checkFeature(operations.listChanges!, plans.team)).not.toThrow();
  const refused = (() => {
    try {
      checkFeature(operations.getExportFile!, plans.team);
    } catch (error) {
      return error as { code: string; status: number };
    }
  })();
  expect(refused).toMatchObject({ code: 'plan_feature_unavailable', status: 402 });
  expect(() => checkFeature(operations.getExportManifest!, plans.business)).not.toThrow();
  expect(() => checkFeature(operations.listFirms!, plans.trial)).not.toThrow();
});
