import { expect, test } from 'vitest';
import { CursorCodec } from './cursor.ts';
import { mintCursor } from './mint-cursor.ts';
import { filterDigest } from '../http/query.ts';
import type { RouteMatch } from '../http/router.ts';

test(
  'a minted cursor is the one the engine would issue: it decodes ' +
    'under the same secret, operation and filters, and under no other',
  async () => {
    const minted = await mintCursor('s3cret-s3cret-s3cret', 'listRounds', 'rnd_000000000042', {
      filters: { announced_since: '2025-01-01' },
    });
    const codec = new CursorCodec('s3cret-s3cret-s3cret');
    const digest = (filters: Record<string, string>) =>
      filterDigest({ params: new Map() } as RouteMatch, new Map(Object.entries(filters)));
    expect(await codec.decode(minted, 'listRounds', digest({ announced_since: '2025-01-01' }))).toBe(
      'rnd_000000000042',
    );
    await expect(codec.decode(minted, 'listRounds', digest({}))).rejects.toMatchObject({ code: 'invalid_cursor' });
    await expect(
      new CursorCodec('another-secret-another').decode(minted, 'listRounds', digest({ announced_since: '2025-01-01' })),
    ).rejects.toMatchObject({ code: 'invalid_cursor' });
  },
);
