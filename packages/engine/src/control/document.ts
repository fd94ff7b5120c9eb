/**
 * The control API's own OpenAPI 3.1 document (openapi.yaml beside this file, made JSON by `pnpm
 * generate`), as a plain object: no file system, so the engine serves it at
 * /__control/openapi.json under Node and in a browser alike.
 */
import document from './generated/openapi.json' with { type: 'json' };

/**
 * The document's shape as far as code reads it: written out, not `typeof` the JSON, so that the
 * published declarations do not import a JSON file (which needs resolveJsonModule in the user's project).
 */
export interface ControlDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** The control API's document, as `GET /__control/openapi.json` answers it. */
export const controlDocument = document as unknown as ControlDocument;
