import { expect, test } from 'vitest';
import { parseUrl } from './query.ts';

const at = (url: string) => parseUrl(new Request(url));

test(
  'a remembered URL is the one parsing its text again gives: ' +
    "by the whole text, past the memory's bound, long ones too",
  () => {
    expect(at('http://localhost/api/v1/firms?limit=5').search).toBe('?limit=5');
    expect(at('http://localhost/api/v1/firms?limit=6').search).toBe('?limit=6');
    expect(at('http://example.test/api/v1/firms?limit=5').host).toBe('example.test');
    for (let i = 0; i < 3000; i++)
      expect(at(`http://localhost/api/v1/firms/firm-${i}`).pathname).toBe(`/api/v1/firms/firm-${i}`);
    expect(at('http://localhost/api/v1/firms/firm-1?x=%7C').href).toBe('http://localhost/api/v1/firms/firm-1?x=%7C');
    const long = `http://localhost/api/v1/firms?q=${'a'.repeat(600)}`;
    expect(at(long).search).toBe(`?q=${'a'.repeat(600)}`);
    expect(() => at(`http://localhost/api/v1/firms?q=${'a'.repeat(9000)}`)).toThrow(/longer than/);
  },
);

test(
  'a URL that cannot be parsed (a Host no URL parser takes, handed on by an ' +
    "adapter that checks none) is a 400 invalid_request, not a throw of the kit's",
  () => {
    for (const host of [
      '127.0.0.256',
      '256.0.0.1',
      '1.2.3.4.5',
      '09.1.1.1',
      '0x100000000',
      '[::1',
      'localhost:65536',
    ]) {
      // A Request cannot be made of such a URL; the Node fast path hands the engine a record like this.
      const sent = { url: `http://${host}/api/v1/firms`, method: 'GET', headers: new Headers() } as unknown as Request;
      expect(() => parseUrl(sent), host).toThrow(
        expect.objectContaining({ name: 'ProblemError', code: 'invalid_request', status: 400 }),
      );
    }
  },
);
