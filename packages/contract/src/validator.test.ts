import { expect, test } from 'vitest';
import { createContractValidator, openapiDocument, resolveRef } from './index.ts';

const validator = await createContractValidator();
const examples = openapiDocument.components.examples as Record<string, { value: Record<string, unknown> }>;
const json = { 'content-type': 'application/json' };

test('the output validator accepts the documented example of a firm', () => {
  expect(
    validator.validateResponse('getFirm', { status: 200, headers: json, body: examples.FirmEnvelope!.value }),
  ).toEqual([]);
});

test('the output validator rejects a firm whose slug breaks the pattern and whose row lacks updated_at', () => {
  const body = structuredClone(examples.FirmEnvelope!.value) as { data: Record<string, unknown> };
  body.data.slug = 'Not A Slug';
  delete body.data.updated_at;
  const violations = validator.validateResponse('getFirm', { status: 200, headers: json, body });
  expect(violations.map((v) => v.path)).toEqual(expect.arrayContaining(['body.data.slug', 'body.data']));
  expect(violations.some((v) => v.message.includes('updated_at'))).toBe(true);
});

test('the output validator rejects a 402 problem without actions and an undocumented status', () => {
  const problem = {
    type: 'about:blank',
    title: 'x',
    status: 402,
    detail: 'x',
    code: 'quota_exhausted',
    request_id: 'r',
  };
  const missing = validator.validateResponse('listFirms', {
    status: 402,
    headers: { 'content-type': 'application/problem+json' },
    body: problem,
  });
  expect(missing.some((v) => v.message.includes('actions'))).toBe(true);
  const undocumented = validator.validateResponse('listFirms', { status: 201, headers: json, body: {} });
  expect(undocumented[0]?.severity).toBe('error');
});

test('the output validator rejects a 429 without Retry-After', () => {
  const body = (
    resolveRef(openapiDocument.components.responses.TooManyRequests) as {
      content: Record<string, { examples: { default: { value: unknown } } }>;
    }
  ).content['application/problem+json']!.examples.default.value;
  const violations = validator.validateResponse('listFirms', {
    status: 429,
    headers: { 'content-type': 'application/problem+json' },
    body,
  });
  expect(violations.some((v) => /retry-after/i.test(v.message))).toBe(true);
});

test('the input validator names a malformed limit, a bad slug and a bad e-mail', () => {
  expect(
    validator.validateRequest('listFirms', { method: 'GET', path: '/api/v1/firms', query: { limit: 'ten' } })[0]?.path,
  ).toBe('query.limit');
  expect(validator.validateRequest('getFirm', { method: 'GET', path: '/api/v1/firms/..%2Fetc' })[0]?.path).toBe(
    'path.slug',
  );
  const body = validator.validateRequest('createTrialKey', {
    method: 'POST',
    path: '/api/v1/keys/trial',
    headers: json,
    body: { email: 'not-an-address' },
  });
  expect(body[0]?.path).toBe('body.email');
});

test('every documented example validates against its own operation', () => {
  const failures: string[] = [];
  for (const [path, item] of Object.entries(openapiDocument.paths)) {
    for (const op of Object.values(item as Record<string, Record<string, unknown>>)) {
      for (const [status, response] of Object.entries(op.responses as Record<string, unknown>)) {
        const resolved = resolveRef(response) as {
          content?: Record<string, { examples?: Record<string, unknown> }>;
          headers?: Record<string, unknown>;
        };
        for (const [mediaType, media] of Object.entries(resolved.content ?? {})) {
          for (const example of Object.values(media.examples ?? {})) {
            const headers: Record<string, string> = { 'content-type': mediaType };
            if (status === '429' || status === '503') headers['retry-after'] = '1';
            if (status === '401') headers['www-authenticate'] = 'Bearer realm="investor-graph"';
            const body = (resolveRef(example) as { value: unknown }).value;
            const violations = validator.validateResponse(op.operationId as string, {
              status: Number(status),
              headers,
              body,
            });
            for (const v of violations.filter((x) => x.severity === 'error'))
              failures.push(`${path} ${status}: ${v.path} ${v.message}`);
          }
        }
      }
    }
  }
  expect(failures).toEqual([]);
});

test('a path with a malformed percent escape is a violation, not a thrown URIError', () => {
  const found = validator.validateRequest('getFund', {
    method: 'GET',
    path: '/api/v1/funds/%ZZ',
    headers: { authorization: 'Bearer x' },
  });
  expect(found).toEqual([expect.objectContaining({ path: 'path', severity: 'error' })]);
});
