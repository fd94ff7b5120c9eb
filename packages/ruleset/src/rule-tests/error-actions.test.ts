import { testRule } from '../test-rule.ts';

testRule('ig-error-actions', [
  {
    name: 'a 402 whose problem does not require actions',
    break: (d) =>
      (d.components.responses.PaymentRequired.content['application/problem+json'].schema = {
        $ref: '#/components/schemas/Problem',
      }),
  },
  {
    name: 'a 401 served as application/json',
    break: (d) => {
      const r = d.components.responses.Unauthorized;
      r.content = { 'application/json': r.content['application/problem+json'] };
    },
  },
  {
    name: 'actions items without href',
    break: (d) => (d.components.schemas.Action.required = ['type', 'title', 'method']),
  },
  {
    name: 'an action type list without book_call',
    break: (d) =>
      (d.components.schemas.Action.properties.type.enum = ['get_trial_key', 'buy_prepaid_rows', 'subscribe']),
  },
]);
