/** Routes a method and raw path to an operation of the contract, with its path parameters decoded. */
import { shorten } from '@investor-graph/cli/redact';
import { matchOperation, methodsAt } from '@investor-graph/contract/router';
import { ProblemError } from '../problems.ts';

export interface RouteMatch {
  operationId: string;
  params: Map<string, string>;
  /** The path as sent (still percent-encoded), for prism-http's path validation. */
  rawPath: string;
  queryNames: string[];
}

/** Routes found, by method and raw path: a route depends on nothing else, and a client asks the same paths again. */
const found = new Map<string, RouteMatch>();
const MAX_FOUND = 4096;

/**
 * HEAD is the GET without its body (RFC 9110): it takes the GET's route. Never edited by a caller: it may be shared.
 */
export function matchRoute(method: string, rawPath: string): RouteMatch {
  const shape = `${method} ${rawPath}`;
  const known = found.get(shape);
  if (known) return known;
  const route = routeOf(method, rawPath);
  // Short paths only, so hostile long ones cannot fill memory; cleared when full: cheaper than an
  // order kept on every hit, and refilled by the next calls.
  if (rawPath.length > 512) return route;
  if (found.size >= MAX_FOUND) found.clear();
  found.set(shape, route);
  return route;
}

function routeOf(method: string, rawPath: string): RouteMatch {
  const found = matchOperation(method === 'HEAD' ? 'GET' : method, rawPath);
  if (!found) throw refusedRoute(method, rawPath);
  const params = new Map<string, string>();
  for (const [name, raw] of found.rawParams) {
    try {
      params.set(name, decodeURIComponent(raw));
    } catch {
      throw new ProblemError('invalid_parameter', `The path parameter ${name} is not valid percent-encoded UTF-8.`, {
        extra: { errors: [{ parameter: name, detail: 'not valid percent-encoded UTF-8' }] },
      });
    }
  }
  return { operationId: found.op.operationId, params, rawPath, queryNames: found.op.query };
}

/** What a method no operation of the path takes gets: 405 with Allow, or 404 when no operation has the path. */
export function refusedRoute(method: string, rawPath: string): ProblemError {
  const allowed = allowedMethods(rawPath);
  if (!allowed) return notFound(rawPath);
  const allow = allowed.join(', ');
  return new ProblemError('method_not_allowed', `${method.slice(0, 20)} is not allowed here; use ${allow}.`, {
    headers: { allow },
  });
}

/** The methods a path answers (HEAD with GET, OPTIONS always), or null when no operation has the path. */
export function allowedMethods(rawPath: string): string[] | null {
  const methods = new Set(methodsAt(rawPath));
  if (!methods.size) return null;
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  return [...methods].sort();
}

export function notFound(rawPath: string): ProblemError {
  return new ProblemError(
    'route_not_found',
    `There is no endpoint at ${shorten(rawPath, 200)}. See /api/v1/openapi.json.`,
  );
}
