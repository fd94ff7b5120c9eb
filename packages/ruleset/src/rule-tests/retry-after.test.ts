import { testRule } from '../test-rule.ts';

testRule('ig-429-retry-after', [
  {
    name: 'a 429 without Retry-After',
    break: (d) => delete d.components.responses.TooManyRequests.headers['Retry-After'],
  },
]);
