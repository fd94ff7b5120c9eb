import { testRule } from '../test-rule.ts';

testRule('ig-bearer-security', [
  {
    name: 'a data call that opts out of security',
    break: (d) => (d.paths['/api/v1/rounds'].get.security = []),
    at: 'paths./api/v1/rounds.get',
  },
  {
    name: 'an API key scheme in the header instead of bearer',
    break: (d) => (d.components.securitySchemes.bearerAuth = { type: 'apiKey', in: 'header', name: 'X-Key' }),
  },
  { name: 'a trial call that asks for a key', break: (d) => delete d.paths['/api/v1/keys/trial'].post.security },
]);
