/**
 * prism-http's own validator, for a browser. prism-http runs there once two Node habits are kept
 * out of its way: its ref parser resolves `$ref`s with Node's `url` and `path` (here the contract
 * comes with every internal `$ref` already replaced by its target, so there is nothing left to
 * resolve), and a few modules it imports name Node built-ins they never call on this path
 * (build-browser.mjs gives them inert stand-ins). The verdicts are prism-http's, the same code the
 * Node server runs; browser.test.ts checks that they agree case by case.
 */
import { createContractValidator, type ContractValidator } from '@investor-graph/contract';
import { openapiDocument } from '@investor-graph/contract/document';

/**
 * The document with every internal `$ref` replaced by its target (one shared object per target).
 * A schema that refers to itself cannot be written out so, and is refused.
 */
export function dereferenced<T>(document: T): T {
  const done = new Map<string, unknown>();
  const open = new Set<string>();
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/')) {
      if (done.has(ref)) return done.get(ref);
      if (open.has(ref)) throw new Error(`[investor-graph] ${ref} refers to itself: the browser validator needs a contract without recursive schemas`);
      open.add(ref);
      const target = ref
        .slice(2)
        .split('/')
        .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
      const out = walk(target);
      open.delete(ref);
      done.set(ref, out);
      return out;
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
  };
  return walk(document) as T;
}

/** prism-http's request and response validation over the contract, without Node. */
export function createBrowserValidator(): Promise<ContractValidator> {
  return createContractValidator(dereferenced(openapiDocument));
}
