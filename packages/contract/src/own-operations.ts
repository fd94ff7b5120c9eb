/**
 * The kit's own contract as prism-http's `getHttpOperationsFromSpec` reads it, from the file
 * `pnpm generate` writes (a JSON round trip loses nothing of it: plain objects and arrays, no
 * object in two places). Node only: the browser validator reads its own dereferenced copy. The
 * path is made from import.meta.dirname, not a URL: under jsdom or happy-dom (MSW in a DOM test)
 * `URL` is the DOM's, which Node's file system does not take.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IHttpOperation } from '@stoplight/types';

export const read = (): IHttpOperation[] =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'generated', 'operations.json'), 'utf8')) as IHttpOperation[];
