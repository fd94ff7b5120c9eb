import { testRule } from '../test-rule.ts';

testRule('ig-x-assumed', [
  {
    name: 'a marker naming no heading of DECISIONS.md',
    break: (d) => (d.components.parameters.Cursor['x-assumed'] = 'DECISIONS.md#cursor-format'),
  },
  {
    name: 'a marker that is not a DECISIONS.md link',
    break: (d) => (d.components.schemas.Fund['x-assumed'] = 'see the wiki'),
  },
]);
