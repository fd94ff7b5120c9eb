/**
 * The answers a run holds, by request: every plain GET made with the run's key (no header that
 * changes the answer), so that one fetched answer feeds every property that can judge it and a walk
 * one property made is the walk another reads (a page is asked by its URL, cursor and all). A
 * property that must see the service answer again (two reads to compare, a counter to watch) calls;
 * one that judges what the data says reads. Bounded by count and by the bodies' size, the least
 * recently used dropped first: a long run must not keep every page it read.
 */
import type { Answer } from './answer.ts';

/** What a remembered answer is, beside the answer: which call of the run made it. */
export interface Held {
  answer: Answer;
  /** The run's call count when it was made: later answers can tell what came before. */
  call: number;
}

export interface AnswerBounds {
  entries: number;
  /** The sum of the bodies' lengths, in characters. */
  chars: number;
}

export const defaultBounds: AnswerBounds = { entries: 2_000, chars: 32 * 1024 * 1024 };

export class Answers {
  readonly #held = new Map<string, Held>();
  readonly bounds: AnswerBounds;
  #chars = 0;
  /** Reads answered from memory, not by a call: what sharing saved. */
  hits = 0;

  constructor(bounds: AnswerBounds = defaultBounds) {
    this.bounds = bounds;
  }

  get size(): number {
    return this.#held.size;
  }

  get chars(): number {
    return this.#chars;
  }

  /** Keeps an answer of `path` (the newest wins), dropping the least recently used past the bounds. */
  remember(path: string, answer: Answer, call: number): void {
    // A body larger than the whole bound is not kept: it would only push everything else out.
    if (answer.text.length > this.bounds.chars) return;
    this.forget(path);
    this.#held.set(path, { answer, call });
    this.#chars += answer.text.length;
    for (const [oldest, held] of this.#held) {
      if (this.#held.size <= this.bounds.entries && this.#chars <= this.bounds.chars) break;
      this.#held.delete(oldest);
      this.#chars -= held.answer.text.length;
    }
  }

  /** The answer held for `path`, now the most recently used; undefined when none is. */
  get(path: string): Held | undefined {
    const held = this.#held.get(path);
    if (!held) return undefined;
    this.#held.delete(path);
    this.#held.set(path, held);
    return held;
  }

  forget(path: string): void {
    const held = this.#held.get(path);
    if (!held) return;
    this.#held.delete(path);
    this.#chars -= held.answer.text.length;
  }

  /** Every answer held, oldest call first. */
  all(): [string, Held][] {
    return [...this.#held].sort((a, b) => a[1].call - b[1].call);
  }
}
