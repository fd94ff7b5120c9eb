import { testRule } from '../test-rule.ts';

testRule('ig-list-paging', [
  {
    name: 'a list without the cursor parameter',
    break: (d) =>
      (d.paths['/api/v1/funds'].get.parameters = d.paths['/api/v1/funds'].get.parameters.filter(
        (p: any) => !p.$ref.endsWith('/Cursor'),
      )),
  },
  { name: 'a list without limit', break: (d) => (d.paths['/api/v1/filings'].get.parameters = []) },
  {
    name: 'next_cursor that cannot be null',
    break: (d) => (d.components.schemas.RoundPage.properties.next_cursor = { type: 'string' }),
  },
]);
