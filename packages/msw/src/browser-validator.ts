/**
 * prism-http's own validator, for a browser. prism-http runs there once two Node habits are kept
 * out of its way: its ref parser resolves `$ref`s with Node's `url` and `path` (here the contract
 * comes with every internal `$ref` already replaced by its target, so there is nothing left to
 * resolve), and a few modules it imports name Node built-ins they never call on this path
 * (build-browser.mjs gives them inert stand-ins). The verdicts are prism-http's, the same code the
 * Node server runs; browser.test.ts checks that they agree case by case.
 */
import { createContractValidator, type ContractValidator } from '@investor-graph/contract';
import { openapiDocument, resolveRef, type OpenApiDocument } from '@investor-graph/contract/document';

/**
 * The contract with every internal `$ref` replaced by its target (one shared object per target),
 * each looked up by the contract's own resolveRef. A schema that refers to itself cannot be
 * written out so, and is refused.
 */
function dereferenced(): OpenApiDocument {
  const done = new Map<string, unknown>();
  const open = new Set<string>();
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/')) {
      if (done.has(ref)) return done.get(ref);
      if (open.has(ref))
        throw new Error(
          `[investor-graph] ${ref} refers to itself: the browser validator needs a contract without recursive schemas`,
        );
      open.add(ref);
      const out = walk(resolveRef(node));
      open.delete(ref);
      done.set(ref, out);
      return out;
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
  };
  return walk(openapiDocument) as OpenApiDocument;
}

/** prism-http's request and response validation over the contract, without Node. */
export function createBrowserValidator(): Promise<ContractValidator> {
  return createContractValidator(dereferenced());
}
