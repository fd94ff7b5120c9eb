/**
 * A cursor made outside a walk: the one a mock started with `secret` (`--cursor-secret`) would
 * issue for the page after `afterKey` of an operation with these path parameters and filters. For
 * benchmarks and tests that start deep in a list, where walking there would take minutes.
 */
import { CursorCodec } from './cursor.ts';
import { filterDigest } from '../http/query.ts';

export function mintCursor(
  secret: string,
  operationId: string,
  afterKey: string,
  where: { params?: Record<string, string>; filters?: Record<string, string> } = {},
): Promise<string> {
  const route = { params: new Map(Object.entries(where.params ?? {})) } as Parameters<typeof filterDigest>[0];
  return new CursorCodec(secret).encode(
    operationId,
    filterDigest(route, new Map(Object.entries(where.filters ?? {}))),
    afterKey,
  );
}
