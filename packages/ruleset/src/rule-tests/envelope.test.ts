import { testRule } from '../test-rule.ts';

testRule('ig-envelope', [
  { name: 'an envelope without usage', break: (d) => delete d.components.schemas.FirmPage.properties.usage },
  {
    name: 'an envelope whose as_of is not required',
    break: (d) => (d.components.schemas.FundEnvelope.required = ['data', 'next_cursor', 'plan', 'usage']),
  },
  {
    name: 'a data call answering a bare row',
    break: (d) =>
      (d.paths['/api/v1/firms/{slug}'].get.responses['200'].content['application/json'].schema = {
        $ref: '#/components/schemas/Firm',
      }),
  },
]);
