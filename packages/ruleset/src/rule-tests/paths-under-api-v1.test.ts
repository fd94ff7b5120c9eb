import { testRule } from '../test-rule.ts';

testRule('ig-paths-under-api-v1', [
  {
    name: 'a path outside /api/v1',
    break: (d) => (d.paths['/v2/firms'] = d.paths['/api/v1/firms']),
    at: 'paths./v2/firms',
  },
]);
