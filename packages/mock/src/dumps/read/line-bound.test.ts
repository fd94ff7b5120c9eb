/**
 * The line bound of a dump file (line-splitter.ts) held to the contract's bounds (DECISIONS.md#bounds):
 * the largest row any resource's schema allows, written out at its worst, fits in half of it, the
 * other half left for fields the contract does not describe.
 */
import { expect, test } from 'vitest';
import { openapiDocument } from '@investor-graph/contract';
import { lineBound } from './line-splitter.ts';

interface Schema {
  $ref?: string;
  type?: string | string[];
  maxLength?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}
const schemas = (openapiDocument as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas;

// A character written as an escaped surrogate pair (`\ud83d\ude00`) is 12 bytes, the most JSON gives
// one; a number at most 24 (`-1.2345678901234567e+308`). A string or array with no bound is Infinity.
const perCharacter = 12;
const numberBytes = 24;

/** The most bytes a value of `schema` takes written as JSON: every string and array at its bound, every field there. */
function largest(schema: Schema, seen: string[] = []): number {
  if (schema.$ref) {
    const name = schema.$ref.split('/').at(-1)!;
    return seen.includes(name) ? 0 : largest(schemas[name]!, [...seen, name]);
  }
  if (schema.allOf) return schema.allOf.reduce((sum, s) => sum + largest(s, seen), 0);
  const choices = schema.oneOf ?? schema.anyOf;
  if (choices) return Math.max(...choices.map((s) => largest(s, seen)));
  const types = [schema.type ?? []].flat();
  const sizes = [4]; // null
  if (schema.enum || schema.const !== undefined)
    sizes.push(...[...(schema.enum ?? []), schema.const].map((v) => perCharacter * String(v).length + 2));
  else if (types.includes('string')) sizes.push(perCharacter * (schema.maxLength ?? Infinity) + 2);
  if (types.includes('integer') || types.includes('number')) sizes.push(numberBytes);
  if (types.includes('array')) sizes.push(2 + (schema.maxItems ?? Infinity) * (largest(schema.items ?? {}, seen) + 1));
  if (schema.properties)
    sizes.push(
      Object.entries(schema.properties).reduce((sum, [name, s]) => sum + name.length + 4 + largest(s, seen), 2),
    );
  return Math.max(...sizes);
}

test("the line bound holds twice the largest row the contract's bounds allow, of every resource", () => {
  const rows = ['Firm', 'Company', 'Round', 'Investment', 'Fund', 'Filing', 'Offering', 'AdvFund', 'List'];
  const sizes = Object.fromEntries(rows.map((name) => [name, largest({ $ref: `#/components/schemas/${name}` })]));
  // A list's 1,000 members are the largest: about 3.8 MB at the worst, under 4 MB (line-splitter.ts says so).
  expect(Math.max(...Object.values(sizes))).toBeLessThan(4_000_000);
  for (const [name, size] of Object.entries(sizes)) expect(size * 2, name).toBeLessThanOrEqual(lineBound);
});
