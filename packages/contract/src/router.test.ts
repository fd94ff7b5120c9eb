import { expect, test } from 'vitest';
import { operations } from './document.ts';
import { matchOperation, methodsAt, operationFor } from './router.ts';

test('every operation of the contract is found at its own path with a sample filled in', () => {
  for (const op of operations) {
    const path = op.path.replace(/\{\w+\}/g, 'sample-1');
    expect(operationFor(op.method, path)?.operationId, `${op.method} ${op.path}`).toBe(op.operationId);
  }
});

test('path parameters come back as sent, still percent-encoded', () => {
  const found = matchOperation('GET', '/api/v1/firms/harbor%20lane/portfolio');
  expect(found?.op.path).toBe('/api/v1/firms/{slug}/portfolio');
  expect(found?.rawParams.get('slug')).toBe('harbor%20lane');
});

test('a method the contract does not define there, or a path it does not have, is no operation', () => {
  expect(operationFor('DELETE', '/api/v1/firms')).toBeNull();
  expect(operationFor('HEAD', '/api/v1/firms')).toBeNull();
  expect(operationFor('GET', '/api/v1/firms/a/b/c')).toBeNull();
  expect(operationFor('GET', '/api/v1/firms/')).toBeNull();
});

test('methodsAt names what a path answers, and nothing off the contract', () => {
  expect(methodsAt('/api/v1/firms')).toEqual(['GET']);
  expect(methodsAt('/api/v1/keys/trial')).toEqual(['POST']);
  expect(methodsAt('/nowhere')).toEqual([]);
});
