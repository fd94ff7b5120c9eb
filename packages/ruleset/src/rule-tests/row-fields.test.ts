import { testRule } from '../test-rule.ts';

testRule('ig-row-fields', [
  {
    name: 'a row without service_url',
    break: (d) => delete d.components.schemas.Firm.properties.service_url,
    at: 'components.schemas.Firm',
  },
  {
    name: 'updated_at that is a date, not a date-time',
    break: (d) => (d.components.schemas.Round.properties.updated_at.format = 'date'),
  },
  {
    name: 'first_seen_at not required',
    break: (d) =>
      (d.components.schemas.Fund.required = d.components.schemas.Fund.required.filter(
        (f: string) => f !== 'first_seen_at',
      )),
  },
]);
