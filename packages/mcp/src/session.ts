/**
 * What a server holds for its agent: the key its calls use (INVESTOR_GRAPH_KEY, or one a tool
 * issued since), and every secret it has seen, which no result or log line may show in any form.
 */
import { redact, redactJson } from '@investor-graph/cli/redact';

/** The secrets one process has held: kept for redaction only, never shown. */
export class Secrets {
  private readonly held = new Set<string>();

  constructor(initial: readonly (string | undefined)[] = []) {
    for (const secret of initial) this.add(secret);
  }

  add(secret: string | undefined): void {
    if (secret) this.held.add(secret);
  }

  list(): readonly string[] {
    return [...this.held];
  }

  /** `text` with every held secret, and anything shaped like a key, blanked. */
  text(text: string): string {
    return redact(text, this.list());
  }

  /** Every string of `value` through the same redaction. */
  json<T>(value: T): T {
    return redactJson(value, this.list());
  }

  /**
   * What the API served as data (rows, a cursor, a document): a string is blanked only when it
   * holds a held secret, in any encoding the one redaction knows (it blanks more with them known
   * than without); the rest is kept, since a row's sha256 or a cursor only looks like a secret.
   */
  served<T>(value: T): T {
    const known = this.list();
    if (typeof value === 'string') return (redact(value, known) === redact(value) ? value : '***') as T;
    if (Array.isArray(value)) return value.map((item: unknown) => this.served(item)) as T;
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, this.served(member)])) as T;
  }
}

/** One agent's session: its key, and the page size of the plan its last answer named. */
export interface Session {
  key: string | undefined;
  /** Rows a result may carry: the plan's page size once an answer named the plan. */
  rowsPerPage: number | undefined;
}

/** A session starting with `key` (the environment's, or none). */
export function newSession(key: string | undefined): Session {
  return { key, rowsPerPage: undefined };
}
