import { expect, test } from 'vitest';
import { isPersonFieldName, isPersonValue, personFieldNames } from './people.ts';

test('a person field is known in snake, camel and kebab case, singular or plural', () => {
  for (const name of ['first_name', 'firstName', 'first-name', 'founders', 'Founder', 'linkedinUrl', 'contactEmail', 'phones']) expect(isPersonFieldName(name), name).toBe(true);
});

test('fields about firms, funds and rounds are not person fields', () => {
  for (const name of ['name', 'slug', 'stages', 'status', 'lead_firms', 'portfolio_count', 'address', 'website']) expect(isPersonFieldName(name), name).toBe(false);
});

test('users extend the vocabulary with names of their own', () => {
  expect(isPersonFieldName('nickname')).toBe(false);
  expect(isPersonFieldName('nickname', ['nickname'])).toBe(true);
});

test('the vocabulary is written in lower snake case, once', () => {
  expect(new Set(personFieldNames).size).toBe(personFieldNames.length);
  for (const name of personFieldNames) expect(name).toMatch(/^[a-z]+(_[a-z]+)*$/);
});

test('e-mail addresses, phone numbers and profile or photo URLs are people data wherever they appear', () => {
  for (const value of ['write to ops@example.com', '+1 415 555 0100', 'https://www.linkedin.com/in/someone', 'https://cdn.example/headshot.jpg']) expect(isPersonValue(value), value).toBe(true);
  for (const value of ['Harbor Lane Capital', 'https://harborlane.example', '0001478231', '2026-11-20T03:00:00Z']) expect(isPersonValue(value), value).toBe(false);
});
