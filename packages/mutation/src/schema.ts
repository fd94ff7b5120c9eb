/**
 * What the contract says of one field of an operation's answer: whether it must be there, may be
 * null, and whether any text goes. The sites use it to flag mutants whose answer the contract
 * still allows (a candidate equivalent, for a person to judge with the rest).
 */
import { operationById, resolveRef } from '@investor-graph/contract';

type Schema = Record<string, unknown>;

export interface FieldRule {
  /** The field is named in its object's `required`. */
  required: boolean;
  nullable: boolean;
  /** A string with no enum, pattern, format or const: any text goes (in any case). */
  anyText: boolean;
  /** Any text, the empty one too (no minimum length). */
  mayBeEmpty: boolean;
  /** The values of a string enum the field is held to (every alternative an enum), else none. */
  values: string[] | null;
}

/** The schema of an operation's answer of this status (its JSON content), `$ref`s resolved. */
export function answerSchema(operation: string, status: number): Schema | null {
  const responses = operationById(operation).responses;
  const response = resolveRef(responses[String(status)] ?? responses[`${String(status)[0]}XX`]) as Schema | undefined;
  const content = (response?.content ?? {}) as Record<string, { schema?: unknown }>;
  const json = Object.entries(content).find(([type]) => /json/.test(type))?.[1];
  return json?.schema ? resolveRef(json.schema) : null;
}

/** The alternatives a schema allows (allOf merged into one, oneOf and anyOf each). */
function branches(schema: Schema): Schema[] {
  const s = resolveRef(schema);
  if (Array.isArray(s.allOf)) {
    const merged: Schema = { ...s, properties: {}, required: [...((s.required as string[]) ?? [])] };
    for (const part of (s.allOf as Schema[]).flatMap(branches)) {
      Object.assign(merged.properties as Schema, part.properties ?? {});
      (merged.required as string[]).push(...((part.required as string[]) ?? []));
      if (part.type && !merged.type) merged.type = part.type;
    }
    return [merged];
  }
  const alternatives = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  return alternatives ? alternatives.flatMap(branches) : [s];
}

function types(schema: Schema): string[] {
  return branches(schema).flatMap((b) =>
    Array.isArray(b.type) ? (b.type as string[]) : b.type ? [b.type as string] : b.const === null ? ['null'] : [],
  );
}

/** The rule of the field at `parts` in an answer of this schema; null where the contract says nothing of it. */
export function fieldRule(root: Schema | null, parts: readonly string[]): FieldRule | null {
  if (!root || parts.length === 0) return null;
  let candidates = branches(root);
  let required = true;
  for (const part of parts) {
    const next: Schema[] = [];
    required = true;
    for (const c of candidates) {
      if (part === '[]') {
        if (c.items) next.push(...branches(c.items as Schema));
      } else {
        const property = (c.properties as Record<string, Schema> | undefined)?.[part];
        if (property) {
          next.push(...branches(property));
          if (!((c.required as string[] | undefined) ?? []).includes(part)) required = false;
        }
      }
    }
    if (next.length === 0) return null;
    candidates = next;
  }
  const kinds = candidates.flatMap(types);
  const free = candidates.filter(
    (c) => types(c).includes('string') && !c.enum && !c.pattern && !c.format && c.const === undefined,
  );
  const enums = candidates.filter((c) => Array.isArray(c.enum));
  const values =
    enums.length > 0 && enums.length === candidates.filter((c) => !types(c).every((t) => t === 'null')).length
      ? [...new Set(enums.flatMap((c) => (c.enum as unknown[]).filter((v): v is string => typeof v === 'string')))]
      : null;
  return {
    required,
    nullable: kinds.includes('null'),
    anyText: free.length > 0,
    mayBeEmpty: free.some((c) => !((c.minLength as number) > 0)),
    values: values && values.length >= 2 ? values : null,
  };
}
