import { expect, test } from 'vitest';
import {
  isPersonFieldName,
  isPersonSchema,
  isPersonValue,
  personFieldNames,
  personNamePairs,
  personNameWords,
} from './people.ts';

test('a person field is known in snake, camel and kebab case, singular or plural', () => {
  for (const name of [
    'first_name',
    'firstName',
    'first-name',
    'founders',
    'Founder',
    'linkedinUrl',
    'linkedInURL',
    'contactEmail',
    'phones',
    'partners',
    'team',
  ])
    expect(isPersonFieldName(name), name).toBe(true);
});

test('a person word anywhere in a compound name makes it a person field', () => {
  for (const name of [
    'contact_phone',
    'founderEmail',
    'linkedin-profile-url',
    'linkedInURL',
    'ceo_name',
    'date_of_birth',
    'primary_e_mail',
    'team_member_photos',
    'mobile_phone',
  ])
    expect(isPersonFieldName(name), name).toBe(true);
});

test('fields about firms, funds and rounds are not person fields, though some share a word with one', () => {
  for (const name of [
    'name',
    'slug',
    'stages',
    'status',
    'lead_firms',
    'portfolio_count',
    'address',
    'website',
    'first_seen_at',
    'firm_name',
    'team_size',
    'general_partner',
    'members',
    'mailing_address',
    'employee_count',
    'num_employees',
    'founder_count',
    'is_founder_led',
    'people_count',
    'executive_summary',
    'mobile_app_url',
    'company_profile_url',
    'linked_investments',
    'linkedInvestors',
    'unlinked_industries',
  ])
    expect(isPersonFieldName(name), name).toBe(false);
});

test('a schema of an e-mail address, a phone or a profile-network URL is people data whatever its name', () => {
  expect(isPersonSchema({ type: 'string', format: 'email' })).toBe(true);
  expect(isPersonSchema({ type: 'string', pattern: '^https://(www\\.)?linkedin\\.com/in/' })).toBe(true);
  expect(isPersonSchema({ type: 'string', format: 'uri' })).toBe(false);
});

test('users extend the vocabulary with whole names of their own', () => {
  expect(isPersonFieldName('nickname')).toBe(false);
  expect(isPersonFieldName('nickname', ['nickname'])).toBe(true);
  expect(isPersonFieldName('nicknames', ['nickname'])).toBe(true);
  expect(isPersonFieldName('firm_name', ['name'])).toBe(false);
});

test('the vocabulary is written in lower snake case, once', () => {
  const all = [...personFieldNames, ...personNameWords, ...personNamePairs.map((p) => p.join('_'))];
  expect(new Set(all).size).toBe(all.length);
  for (const name of all) expect(name).toMatch(/^[a-z]+(_[a-z]+)*$/);
  // A whole name that a word or a pair already finds anywhere would be written twice.
  for (const name of personFieldNames) expect(isPersonFieldName(`x_${name}`), name).toBe(false);
});

test('e-mail addresses, phone numbers and profile or photo URLs are people data wherever they appear', () => {
  for (const value of [
    'write to ops@example.com',
    '+1 415 555 0100',
    'https://www.linkedin.com/in/someone',
    'https://cdn.example/headshot.jpg',
  ])
    expect(isPersonValue(value), value).toBe(true);
  for (const value of ['Harbor Lane Capital', 'https://harborlane.example', '0001478231', '2026-11-20T03:00:00Z'])
    expect(isPersonValue(value), value).toBe(false);
  // Found in time linear in the value: a long run with no address in it, then one at its end.
  const run = 'a'.repeat(2_000_000);
  expect(isPersonValue(run)).toBe(false);
  expect(isPersonValue(`${run}@`)).toBe(false);
  expect(isPersonValue(`${run} ops@example.com`)).toBe(true);
  expect(isPersonValue(`${run}ops@example.com`)).toBe(true);
});
