import { expect, test } from 'vitest';
import { createRuleset } from '../index.js';
import { contract, lint, testRule } from '../test-rule.ts';

testRule('ig-no-person-fields', [
  { name: 'founders on a company', break: (d) => (d.components.schemas.Company.properties.founders = { type: 'array', items: { type: 'string' } }), at: 'components.schemas.Company.properties.founders' },
  { name: 'a contact e-mail on a firm', break: (d) => (d.components.schemas.Firm.properties.email = { type: 'string', format: 'email' }) },
  { name: 'a linkedin URL in a list member', break: (d) => (d.components.schemas.ListMember.properties.linkedin_url = { type: 'string', format: 'uri' }) },
  { name: 'a photo in an inline response schema', break: (d) => (d.paths['/api/v1/openapi.json'].get.responses['200'].content['application/json'].schema.properties.photo = { type: 'string' }) },
]);

test('ig-no-person-fields: users extend the list', async () => {
  const doc = contract();
  doc.components.schemas.Firm.properties.nickname = { type: 'string' };
  expect((await lint(doc)).filter((r) => r.code === 'ig-no-person-fields')).toEqual([]);
  const extended = (await lint(doc, createRuleset({ extraPersonFields: ['nickname'] }))).filter((r) => r.code === 'ig-no-person-fields');
  expect(extended.map((r) => r.path.join('.'))).toContain('components.schemas.Firm.properties.nickname');
});
