/**
 * Field paths in a JSON answer, written as its parts: `['data', '[]', 'sources', '[]', 'url']`
 * ('[]' is every element of an array). What the field operators edit, at every place a path meets.
 */

export type Parts = readonly string[];

/** `data[].sources[].url`: a path as people read it. */
export function pathText(parts: Parts): string {
  return parts.reduce((text, part) => (part === '[]' ? `${text}[]` : text ? `${text}.${part}` : part), '');
}

type Json = unknown;

/** Calls `visit(parent, key)` for each place the path meets in `root` (a member of an object, or an element). */
export function eachPlace(
  root: Json,
  parts: Parts,
  visit: (parent: Record<string, Json> | Json[], key: string | number) => void,
): void {
  const walk = (node: Json, i: number): void => {
    const part = parts[i]!;
    const last = i === parts.length - 1;
    if (part === '[]') {
      if (!Array.isArray(node)) return;
      for (let k = 0; k < node.length; k++) {
        if (last) visit(node, k);
        else walk(node[k], i + 1);
      }
      return;
    }
    if (node === null || typeof node !== 'object' || Array.isArray(node) || !(part in node)) return;
    const object = node as Record<string, Json>;
    if (last) visit(object, part);
    else walk(object[part], i + 1);
  };
  if (parts.length > 0) walk(root, 0);
}

export type ValueKind = 'null' | 'boolean' | 'number' | 'string' | 'date' | 'array' | 'object';

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?Z)?$/;

export function kindOf(value: Json): ValueKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return DATE.test(value) ? 'date' : 'string';
  return typeof value as 'boolean' | 'number' | 'object';
}

/**
 * Every path in a JSON value (objects' members and arrays' elements as '[]'), down to
 * `depth`, with the kinds seen there.
 */
export function pathsOf(
  root: Json,
  depth = 12,
): Map<string, { parts: string[]; kinds: Set<ValueKind>; arrayOfObjects: number }> {
  const found = new Map<string, { parts: string[]; kinds: Set<ValueKind>; arrayOfObjects: number }>();
  const note = (parts: string[], value: Json) => {
    const key = JSON.stringify(parts);
    const entry = found.get(key) ?? { parts, kinds: new Set<ValueKind>(), arrayOfObjects: 0 };
    entry.kinds.add(kindOf(value));
    if (Array.isArray(value) && value.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v))) {
      entry.arrayOfObjects = Math.max(entry.arrayOfObjects, value.length);
    }
    found.set(key, entry);
  };
  const walk = (node: Json, parts: string[]): void => {
    if (parts.length >= depth) return;
    if (Array.isArray(node)) {
      for (const element of node) {
        note([...parts, '[]'], element);
        walk(element, [...parts, '[]']);
      }
    } else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        note([...parts, key], value);
        walk(value, [...parts, key]);
      }
    }
  };
  walk(root, []);
  return found;
}

/** A day later or earlier, in the form the date came in (date or date-time). */
export function shiftDate(text: string, days: number): string {
  const dateOnly = text.length === 10;
  const moved = new Date(Date.parse(dateOnly ? `${text}T00:00:00Z` : text) + days * 86_400_000).toISOString();
  if (dateOnly) return moved.slice(0, 10);
  return /\.\d+Z$/.test(text) ? moved : moved.replace(/\.\d{3}Z$/, 'Z');
}

/** The same value as another JSON type. */
export function retyped(value: Json): Json {
  switch (kindOf(value)) {
    case 'number':
      return String(value);
    case 'string':
    case 'date':
      return (value as string).length;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'array':
      return {};
    case 'object':
      return [value];
    default:
      return 0;
  }
}
