import { testRule } from '../test-rule.ts';

testRule('ig-date-formats', [
  {
    name: 'announced_on as a date-time',
    break: (d) => (d.components.schemas.Round.properties.announced_on = { type: 'string', format: 'date-time' }),
  },
  {
    name: 'expires_at without a format',
    break: (d) => (d.components.schemas.TrialKey.properties.expires_at = { type: 'string' }),
  },
  {
    name: 'since as a date',
    break: (d) => (d.components.parameters.Since.schema = { type: 'string', format: 'date' }),
  },
]);
