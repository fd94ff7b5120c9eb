/**
 * What a call meets when the state database will not take it: a lock held by another process
 * (503 state_busy), or a file that cannot be written (503 state_unavailable). Nothing is counted.
 */
import { ProblemError } from '@investor-graph/engine/adapter';
import { fileTrouble } from './state-file.ts';

/**
 * How long a call waits for another process's write lock. Mocks hold it for well under a
 * millisecond a call, so waiting this long means something else holds it: the call gets 503.
 */
export const busyTimeoutMs = 2000;
const SQLITE_BUSY = 5;

/** SQLITE_BUSY, with or without an extended code (BUSY_RECOVERY, BUSY_SNAPSHOT...). */
export const isBusy = (error: unknown): boolean =>
  ((error as { errcode?: number }).errcode ?? -1) % 256 === SQLITE_BUSY;

/**
 * Tells `onError` (the metrics) an error's kind: a lock held elsewhere, the file's trouble (full,
 * read-only), or another failure; a problem the steps answer (a refusal of the client's) is none.
 */
export function tellError(onError: ((kind: 'busy' | 'file' | 'error') => void) | undefined, error: unknown): void {
  if (onError && !(error instanceof ProblemError))
    onError(isBusy(error) ? 'busy' : fileTrouble(error) ? 'file' : 'error');
}

/** The 503 of a write lock held longer than any call of a mock holds it. */
export function lockedElsewhere(): ProblemError {
  return new ProblemError(
    'state_busy',
    `The mock's state database (--state) stayed locked by another process for ${busyTimeoutMs / 1000} s; ` +
      'nothing was counted. Retry, or end what holds it.',
    { headers: { 'retry-after': '1' } },
  );
}

/**
 * The file, not the mock nor the client: a disk that filled, a file made read-only. As with a
 * lock held elsewhere, 503 and nothing counted; the cause goes to the log, once a call.
 */
export class FileRefusals {
  private readonly file: string;
  /** When the last file trouble was logged. */
  private warnedAt = 0;

  constructor(file: string) {
    this.file = file;
  }

  /** Throws the 503 for a failure of the file; anything else is left to the caller. */
  refuse(error: unknown): void {
    const trouble = fileTrouble(error);
    if (!trouble) return;
    // Once in ten seconds at most: the log may be on the disk that is full.
    if (Date.now() - this.warnedAt > 10_000) {
      this.warnedAt = Date.now();
      console.warn(`[investor-graph mock] the state database ${this.file} ${trouble}: ${(error as Error).message}`);
    }
    // A disk is not freed in a second: clients are asked to wait ten.
    throw new ProblemError(
      'state_unavailable',
      `The mock's state database (--state) ${trouble.replace(/:.*$/, '')}; nothing was counted. ` +
        'Retry once it is writable again.',
      { headers: { 'retry-after': '10' } },
    );
  }
}
