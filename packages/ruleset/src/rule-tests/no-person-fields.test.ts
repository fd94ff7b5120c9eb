import { expect, test } from 'vitest';
import { createRuleset } from '../index.js';
import { contract, lint, only, testRule } from '../test-rule.ts';

const code = 'ig-no-person-fields';

testRule('ig-no-person-fields', [
  {
    name: 'founders on a company',
    break: (d) => (d.components.schemas.Company.properties.founders = { type: 'array', items: { type: 'string' } }),
    at: 'components.schemas.Company.properties.founders',
  },
  {
    name: 'a contact e-mail on a firm',
    break: (d) => (d.components.schemas.Firm.properties.email = { type: 'string', format: 'email' }),
  },
  {
    name: 'a linkedin URL in a list member',
    break: (d) => (d.components.schemas.ListMember.properties.linkedin_url = { type: 'string', format: 'uri' }),
  },
  {
    name: 'a photo in an inline response schema',
    break: (d) =>
      (d.paths['/api/v1/openapi.json'].get.responses['200'].content['application/json'].schema.properties.photo = {
        type: 'string',
      }),
  },
  {
    name: 'a contact phone on a firm (a compound name)',
    break: (d) => (d.components.schemas.Firm.properties.contact_phone = { type: 'string' }),
    at: 'components.schemas.Firm.properties.contact_phone',
  },
  {
    name: "a founder's e-mail in camel case on a company",
    break: (d) => (d.components.schemas.Company.properties.founderEmail = { type: 'string' }),
    at: 'components.schemas.Company.properties.founderEmail',
  },
  {
    name: 'a profile-network URL in kebab case on a list member',
    break: (d) =>
      (d.components.schemas.ListMember.properties['linkedin-profile-url'] = { type: 'string', format: 'uri' }),
  },
  {
    name: 'an innocent name over format email',
    break: (d) => (d.components.schemas.Firm.properties.reach = { type: 'string', format: 'email' }),
    at: 'components.schemas.Firm.properties.reach',
  },
  {
    name: 'an innocent name over a profile-network pattern',
    break: (d) =>
      (d.components.schemas.Firm.properties.ref = { type: 'string', pattern: '^https://(www\\.)?linkedin\\.com/in/' }),
  },
  {
    name: 'a person schema reached only through a $ref from a row',
    break: (d) => {
      d.components.schemas.Contact = { type: 'object', properties: { phone_number: { type: 'string' } } };
      d.components.schemas.Firm.properties.primary = { $ref: '#/components/schemas/Contact' };
    },
    at: 'components.schemas.Contact.properties.phone_number',
  },
]);

test('ig-no-person-fields: fields that only share a word with a person field pass', async () => {
  const doc = contract();
  Object.assign(doc.components.schemas.Firm.properties, {
    team_size: { type: 'integer' },
    general_partner: { type: 'string' },
    mailing_address: { type: 'string' },
  });
  expect((await lint(doc, only(code, createRuleset()))).filter((r) => r.code === code)).toEqual([]);
});

test('ig-no-person-fields: users extend the list', async () => {
  const doc = contract();
  doc.components.schemas.Firm.properties.nickname = { type: 'string' };
  expect((await lint(doc, only(code, createRuleset()))).filter((r) => r.code === code)).toEqual([]);
  const extended = (await lint(doc, only(code, createRuleset({ extraPersonFields: ['nickname'] })))).filter(
    (r) => r.code === code,
  );
  expect(extended.map((r) => r.path.join('.'))).toContain('components.schemas.Firm.properties.nickname');
});
