import { testRule } from '../test-rule.ts';

testRule('operation-operationId', [
  { name: 'an operation without operationId', break: (d) => delete d.paths['/api/v1/firms'].get.operationId },
]);
testRule('operation-operationId-unique', [
  {
    name: 'two operations with one operationId',
    break: (d) => (d.paths['/api/v1/companies'].get.operationId = 'listFirms'),
  },
]);
