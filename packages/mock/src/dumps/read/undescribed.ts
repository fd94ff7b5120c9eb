/**
 * What a nightly dump holds that the contract does not describe, counted by resource and field:
 * fields the contract does not know, required fields missing, values out of its bounds (its row
 * schemas, checked by Ajv), and rows that cannot be served at all. The mock serves such rows as the
 * dump holds them and says so once at start, in a few lines: never a row dropped, or a field left
 * out, without a word.
 *
 * Ajv (the validator prism-http already brings, at the same version) compiles each row schema once;
 * a row is checked in about a microsecond, which ten million rows can afford. The contract's row
 * schemas allow any further field, so each object schema is checked here with no other fields
 * allowed, and a field found so is reported as unknown rather than refused.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { openapiDocument } from '@investor-graph/contract';
import type { ResourceName, Row } from '@investor-graph/dataset-tools';

/** Each resource's row schema in the contract. */
const schemaOf: Record<ResourceName, string> = {
  firm: 'Firm',
  company: 'Company',
  round: 'Round',
  investment: 'Investment',
  fund: 'Fund',
  filing: 'Filing',
  offering: 'Offering',
  'adv-fund': 'AdvFund',
  list: 'List',
};

type Kind = 'unknown' | 'missing' | 'bounds';
const kindText: Record<Kind, (rows: string) => string> = {
  unknown: (rows) => `${rows} with fields the contract does not know`,
  missing: (rows) => `${rows} without fields the contract requires`,
  bounds: (rows) => `${rows} with values out of the contract's bounds`,
};
/** Fields named on a line, the rest counted. */
const FIELDS_SHOWN = 5;

const daysIn = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** YYYY-MM-DD at the start of `text` is a day of the calendar (arithmetic: a Date would cost most of a row's check). */
const isDay = (text: string): boolean => {
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn[month - 1]! + (leap ? 1 : 0);
};
const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const dateTimePattern =
  /^\d{4}-\d{2}-\d{2}[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const formats = {
  date: (text: string) => datePattern.test(text) && isDay(text),
  'date-time': (text: string) => dateTimePattern.test(text) && isDay(text),
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/,
  'uri-reference': /^[^\s]*$/,
  email: /^[^\s@]+@[^\s@]+$/,
  // Their bounds are the schemas' minimum and maximum.
  int32: true,
  int64: true,
} as const;

/** Every object schema of the contract's components with no field allowed beyond its properties. */
function closedSchemas(): Record<string, unknown> {
  const close = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(close);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(node))
      out[name] = name === 'properties' ? mapValues(value, close) : close(value);
    if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false;
    return out;
  };
  return close(openapiDocument.components.schemas) as Record<string, unknown>;
}
const mapValues = (o: unknown, f: (v: unknown) => unknown): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o as Record<string, unknown>).map(([k, v]) => [k, f(v)]));

let validators: Record<ResourceName, ValidateFunction> | undefined;
function compiled(): Record<ResourceName, ValidateFunction> {
  if (validators) return validators;
  const ajv = new Ajv2020({ allErrors: true, strict: false, formats });
  // One document, so the schemas' own `#/components/schemas/...` references resolve inside it.
  ajv.addSchema({ $id: 'contract', components: { schemas: closedSchemas() } });
  validators = mapValues(schemaOf, (name) =>
    ajv.getSchema(`contract#/components/schemas/${name as string}`)!,
  ) as Record<ResourceName, ValidateFunction>;
  return validators;
}

/** `/lead_firms/0/slug` as a field: `lead_firms[].slug`. */
const fieldOf = (path: string): string =>
  path
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? '[]' : part.replace(/~1/g, '/').replace(/~0/g, '~')))
    .join('.')
    .replace(/\.\[\]/g, '[]');

/** What one error says of the row: its kind and field, or null for a summary of others (oneOf's own). */
function finding(error: ErrorObject): { kind: Kind; field: string } | null {
  if (error.keyword === 'additionalProperties')
    return { kind: 'unknown', field: fieldOf(`${error.instancePath}/${String(error.params.additionalProperty)}`) };
  if (error.keyword === 'required')
    return { kind: 'missing', field: fieldOf(`${error.instancePath}/${String(error.params.missingProperty)}`) };
  if (error.keyword === 'oneOf' || error.keyword === 'anyOf') return null;
  return { kind: 'bounds', field: fieldOf(error.instancePath) || '(the row)' };
}

interface Tally {
  rows: number;
  fields: Map<string, { rows: number; example: string | undefined }>;
}

/** The findings of a dump's rows, by resource, kind and field; `lines()` says them. */
export class RowReport {
  private readonly tallies = new Map<string, Tally>();
  private readonly notServed = new Map<ResourceName, Map<string, number>>();
  private readonly notes: string[] = [];

  /** Checks one row against its resource's schema and counts what the contract does not describe. */
  check(resource: ResourceName, row: Row): void {
    const validate = compiled()[resource];
    if (validate(row)) return;
    const seen = new Map<string, ErrorObject>();
    for (const error of validate.errors ?? []) {
      const found = finding(error);
      if (found && !seen.has(`${found.kind}\n${found.field}`)) seen.set(`${found.kind}\n${found.field}`, error);
    }
    const kinds = new Set<Kind>();
    for (const [id, error] of seen) {
      const [kind, field] = id.split('\n') as [Kind, string];
      const tally = this.tally(resource, kind);
      const counted = tally.fields.get(field) ?? { rows: 0, example: kind === 'bounds' ? error.message : undefined };
      counted.rows++;
      tally.fields.set(field, counted);
      if (!kinds.has(kind)) tally.rows++;
      kinds.add(kind);
    }
  }

  /** A row that cannot be served (no key to name it by, its key repeated), counted by why. */
  dropped(resource: ResourceName, why: string): void {
    const whys = this.notServed.get(resource) ?? new Map<string, number>();
    whys.set(why, (whys.get(why) ?? 0) + 1);
    this.notServed.set(resource, whys);
  }

  /** A line of its own about the dump as a whole (a file of a resource the contract does not have). */
  note(line: string): void {
    this.notes.push(line);
  }

  /** The report, a line per resource and kind under a heading; empty when the dump is all the contract describes. */
  lines(): string[] {
    const lines: string[] = [];
    for (const [id, tally] of this.tallies) {
      const [resource, kind] = id.split('\n') as [string, Kind];
      const fields = [...tally.fields]
        .sort((a, b) => b[1].rows - a[1].rows)
        .map(([field, f]) => `${field} (${f.rows.toLocaleString('en')}${f.example ? `, ${f.example}` : ''})`);
      const more = fields.length > FIELDS_SHOWN ? ` and ${fields.length - FIELDS_SHOWN} more fields` : '';
      lines.push(
        `  ${resource}: ${kindText[kind](rowsText(tally.rows))}: ${fields.slice(0, FIELDS_SHOWN).join(', ')}${more}`,
      );
    }
    for (const [resource, whys] of this.notServed) {
      const total = [...whys.values()].reduce((a, b) => a + b, 0);
      const reasons = [...whys].map(([why, n]) => `${why} (${n.toLocaleString('en')})`).join(', ');
      lines.push(`  ${resource}: ${rowsText(total)} NOT served: ${reasons}`);
    }
    lines.push(...this.notes.map((note) => `  ${note}`));
    if (!lines.length) return [];
    return [
      '[investor-graph mock] the dump holds what the contract does not describe; served as the dump holds it:',
      ...lines,
    ];
  }

  private tally(resource: ResourceName, kind: Kind): Tally {
    const id = `${resource}\n${kind}`;
    let tally = this.tallies.get(id);
    if (!tally) this.tallies.set(id, (tally = { rows: 0, fields: new Map() }));
    return tally;
  }
}

const rowsText = (n: number): string => `${n.toLocaleString('en')} ${n === 1 ? 'row' : 'rows'}`;
