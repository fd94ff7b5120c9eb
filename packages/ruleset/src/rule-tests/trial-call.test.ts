import { testRule } from '../test-rule.ts';

testRule('ig-trial-call', [
  {
    name: 'a trial body without email',
    break: (d) =>
      (d.components.schemas.TrialKeyRequest = { type: 'object', properties: { address: { type: 'string' } } }),
  },
  {
    name: 'a trial call that takes a form',
    break: (d) => {
      const b = d.paths['/api/v1/keys/trial'].post.requestBody;
      b.content = { 'application/x-www-form-urlencoded': b.content['application/json'] };
    },
  },
]);
