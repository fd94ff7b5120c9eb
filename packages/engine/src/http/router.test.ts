import { expect, test } from 'vitest';
import { ProblemError } from '../problems.ts';
import { allowedMethods, matchRoute } from './router.ts';

function refused(method: string, path: string): ProblemError {
  try {
    matchRoute(method, path);
  } catch (error) {
    return error as ProblemError;
  }
  throw new Error(`${method} ${path} was routed`);
}

test('a path parameter comes decoded, and the raw path is kept for validation', () => {
  const route = matchRoute('GET', '/api/v1/firms/harbor%20lane');
  expect(route.operationId).toBe('getFirm');
  expect(route.params.get('slug')).toBe('harbor lane');
  expect(route.rawPath).toBe('/api/v1/firms/harbor%20lane');
});

test('HEAD takes the GET of its path', () => {
  expect(matchRoute('HEAD', '/api/v1/firms').operationId).toBe(matchRoute('GET', '/api/v1/firms').operationId);
});

test('a parameter that is not valid percent-encoded UTF-8 is a 400 naming it', () => {
  const error = refused('GET', '/api/v1/firms/%E0%A4%A');
  expect([error.code, error.status]).toEqual(['invalid_parameter', 400]);
  expect(error.detail).toMatch(/slug/);
});

test('a method the path does not take is a 405 with Allow; a path no operation has is a 404', () => {
  const wrong = refused('DELETE', '/api/v1/firms');
  expect([wrong.code, wrong.status, wrong.headers.allow]).toEqual(['method_not_allowed', 405, 'GET, HEAD, OPTIONS']);
  expect(refused('TRACE', '/api/v1/keys/trial').headers.allow).toBe('OPTIONS, POST');
  expect(refused('GET', '/api/v2/firms').code).toBe('route_not_found');
});

test('allowedMethods answers HEAD with GET and OPTIONS always, or null off the contract', () => {
  expect(allowedMethods('/api/v1/firms/x/portfolio')).toEqual(['GET', 'HEAD', 'OPTIONS']);
  expect(allowedMethods('/nowhere')).toBeNull();
});

test(
  'a remembered route is the one routing again would find: by method ' +
    "and path, past the memory's bound, and a refusal is never remembered",
  () => {
    expect(matchRoute('GET', '/api/v1/firms').operationId).toBe('listFirms');
    expect(refused('POST', '/api/v1/firms').status).toBe(405);
    expect(matchRoute('HEAD', '/api/v1/firms').operationId).toBe('listFirms');
    for (let i = 0; i < 5000; i++)
      expect(matchRoute('GET', `/api/v1/firms/firm-${i}`).params.get('slug')).toBe(`firm-${i}`);
    expect(matchRoute('GET', '/api/v1/firms/firm-1').params.get('slug')).toBe('firm-1');
    expect(refused('GET', '/api/v1/firms/%E0%A4%A').status).toBe(400);
    expect(refused('GET', '/api/v1/firms/%E0%A4%A').status).toBe(400);
  },
);
