import { expect, test } from 'vitest';
import { parseUrl } from './request.ts';

const at = (url: string) => parseUrl(new Request(url));

test('a remembered URL is the one parsing its text again gives: by the whole text, past the memory\'s bound, long ones too', () => {
  expect(at('http://localhost/api/v1/firms?limit=5').search).toBe('?limit=5');
  expect(at('http://localhost/api/v1/firms?limit=6').search).toBe('?limit=6');
  expect(at('http://example.test/api/v1/firms?limit=5').host).toBe('example.test');
  for (let i = 0; i < 3000; i++) expect(at(`http://localhost/api/v1/firms/firm-${i}`).pathname).toBe(`/api/v1/firms/firm-${i}`);
  expect(at('http://localhost/api/v1/firms/firm-1?x=%7C').href).toBe('http://localhost/api/v1/firms/firm-1?x=%7C');
  const long = `http://localhost/api/v1/firms?q=${'a'.repeat(600)}`;
  expect(at(long).search).toBe(`?q=${'a'.repeat(600)}`);
  expect(() => at(`http://localhost/api/v1/firms?q=${'a'.repeat(9000)}`)).toThrow(/longer than/);
});
