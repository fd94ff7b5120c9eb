/**
 * The one router of the kit: a method and a raw path to an operation of the contract. The mock's
 * engine, the rules and the tests all route through it, so they cannot disagree on which operation
 * a path is (literal paths such as /api/v1/keys/trial win over templated ones).
 */
import { operations, type OperationInfo } from './document.ts';

export interface OperationMatch {
  op: OperationInfo;
  /** The path parameters by name, as sent (still percent-encoded). */
  rawParams: Map<string, string>;
}

interface Route {
  op: OperationInfo;
  pattern: RegExp;
  names: string[];
}

const routes: readonly Route[] = operations
  .map((op) => {
    const names: string[] = [];
    const source = op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { op, pattern: new RegExp(`^${source}$`), names };
  })
  .sort((a, b) => Number(a.names.length > 0) - Number(b.names.length > 0));

/**
 * The routes by method and number of path segments (a parameter never holds a `/`), in the order
 * above: a request is tried against the few that could match, not all of them.
 */
const byShape = new Map<string, Route[]>();
for (const route of routes) {
  const shape = `${route.op.method} ${segments(route.op.path)}`;
  byShape.set(shape, [...(byShape.get(shape) ?? []), route]);
}

function segments(path: string): number {
  let n = 0;
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) n++;
  return n;
}

/**
 * The operation a method (as the contract writes it, so HEAD is not GET here) and path are for; null off the contract.
 */
export function matchOperation(method: string, rawPath: string): OperationMatch | null {
  for (const route of byShape.get(`${method.toUpperCase()} ${segments(rawPath)}`) ?? []) {
    const m = route.pattern.exec(rawPath);
    if (!m) continue;
    return { op: route.op, rawParams: new Map(route.names.map((name, i) => [name, m[i + 1]!])) };
  }
  return null;
}

/** The operation of the contract a method and path are for; null off the contract. */
export function operationFor(method: string, rawPath: string): OperationInfo | null {
  return matchOperation(method, rawPath)?.op ?? null;
}

/** The methods the contract defines at a path, sorted; empty when no operation has the path. */
export function methodsAt(rawPath: string): string[] {
  return [...new Set(routes.filter((r) => r.pattern.test(rawPath)).map((r) => r.op.method))].sort();
}
