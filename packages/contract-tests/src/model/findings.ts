/**
 * How the model's answers are read and its differences said (model.ts): a body as the client
 * reads it, and a finding naming the call, the pointer, both values and the sentence behind it.
 */
import { resources, type ResourceName, type Row } from '@investor-graph/dataset-tools';
import { sentenceOf } from '../sentences/pointer-sentences.ts';
import type { Difference } from './compare.ts';
import { ledByCursor } from './cursors.ts';

/** A call as the client made it of the service, and what the service answered. */
export interface MirroredCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | undefined;
  /** The key sent, or null. */
  key: string | null;
  own: boolean;
  overlapped: boolean;
  operationId: string | undefined;
  status: number;
  responseHeaders: Headers;
  /** As parsed; undefined when only the status and headers are to be judged (a dump file's bytes). */
  responseBody: unknown;
}

export interface ModelFinding {
  message: string;
  /** A difference no sentence fixes: the kit's reading, said but failing nothing. */
  warning: boolean;
}

export const emptyRows = (): Record<ResourceName, Row[]> =>
  Object.fromEntries(resources.map((r) => [r.name, []])) as unknown as Record<ResourceName, Row[]>;

/** The entity tags a request's `If-None-Match` sends, each as written. */
export const tagsSent = (headers: Record<string, string>): string[] =>
  Object.entries(headers)
    .find(([name]) => name.toLowerCase() === 'if-none-match')?.[1]
    .match(/(W\/)?"[^"]*"/g) ?? [];

export const asOfOf = (body: unknown, otherwise: string): string => {
  const asOf = (body as { as_of?: unknown } | null)?.as_of;
  return typeof asOf === 'string' ? asOf : otherwise;
};

export function parseJson(text: string, type: string | null): unknown {
  // As the client reads a body (@investor-graph/contract's parseBody): empty and not JSON are the text.
  if (!/json/i.test(type ?? '') || text === '') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

/**
 * A difference said with its sentence. On the next page of an earlier answer (`followed`: the
 * service's `next_cursor` sent back with the query it was given for), where the cursor led (the
 * status, the rows, the page's end) is the cursor's sentence (cursors.ts).
 */
export function findingOf(call: MirroredCall, d: Difference, followed = false): ModelFinding {
  const led = followed && ledByCursor(d.pointer);
  const sentence = sentenceOf(led ? 'next-page' : d.pointer, call.operationId, d.model);
  const cut = call.path.replace(/cursor=[^&]{20,}/, (c) => `${c.slice(0, 17)}...`);
  const where = `${call.method} ${cut}${led ? ' (the next page of an earlier answer, by its next_cursor)' : ''}`;
  const said = `${where} ${d.pointer}: the service answered ${shown(d.service)}, the model ${shown(d.model)}`;
  return sentence
    ? { message: `${said} (${sentence})`, warning: false }
    : { message: `${said} (the kit's reading; the contract leaves it open)`, warning: true };
}
