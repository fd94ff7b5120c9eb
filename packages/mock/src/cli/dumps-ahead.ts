/** The nightly dumps a started mock writes ahead, and the cache it keeps their files in (start-mock.ts). */
import type { Engine } from '@investor-graph/engine/adapter';
import { DumpCache, dumpCacheDir } from '../dumps/disk/cache.ts';

/** The cache of finished dump files, or none where there is no home for it (no HOME, no passwd entry). */
export function dumpCacheOf(setting: string | false | undefined): DumpCache | null {
  if (setting === false) return null;
  try {
    return new DumpCache(setting ?? dumpCacheDir());
  } catch {
    return null;
  }
}

/**
 * Starts the dumps a manifest now lists, with the rebuilds due by now applied first (as a call's
 * first steps do), so a day's dump holds that day's 03:00 rebuild even when no call came since.
 */
export function dumpsAhead(engine: Engine, failed: (date: string, error: unknown) => void): void {
  try {
    const now = engine.clock.now();
    engine.store.applyDue(now);
    engine.dumps.ahead(now, failed);
  } catch (error) {
    console.error('[investor-graph mock] internal error writing the nightly dump ahead:', error);
  }
}
