import { expect, test } from 'vitest';
import { operations as contractOperations } from '@investor-graph/contract/document';
import { plans } from '@investor-graph/contract/plans';
import { checkFeature, operations } from './table.ts';

test(
  'the operation table has one entry for each operation of the contract, and ' +
    'no other; the trial key and the contract document are answered without a key',
  () => {
    expect(Object.keys(operations).sort()).toEqual(contractOperations.map((o) => o.operationId).sort());
    const open = Object.entries(operations)
      .filter(([, o]) => 'open' in o)
      .map(([id]) => id)
      .sort();
    expect(open).toEqual(
      contractOperations
        .filter((o) => !o.security)
        .map((o) => o.operationId)
        .sort(),
    );
  },
);

test(
  'only the account call is free; the changes feed and the dumps need their ' +
    'plan feature, and a plan without it meets a 402 naming a plan with it',
  () => {
    expect(
      Object.entries(operations)
        .filter(([, o]) => 'counted' in o && !o.counted)
        .map(([id]) => id),
    ).toEqual(['getAccount']);
    expect(() => checkFeature(operations.listChanges, plans.trial)).toThrowError(
      expect.objectContaining({ code: 'plan_feature_unavailable' }),
    );
    expect(() => checkFeature(operations.listChanges, plans.team)).not.toThrow();
    const refused = (() => {
      try {
        checkFeature(operations.getExportFile, plans.team);
      } catch (error) {
        return error as { code: string; status: number };
      }
    })();
    expect(refused).toMatchObject({ code: 'plan_feature_unavailable', status: 402 });
    expect(() => checkFeature(operations.getExportManifest, plans.business)).not.toThrow();
    expect(() => checkFeature(operations.listFirms, plans.trial)).not.toThrow();
  },
);
