/**
 * A dump file's text cut into lines in time linear in its bytes, each line at most `lineBound`
 * bytes. Only each new chunk is searched for '\n', and a line that spans chunks is kept as its
 * pieces, joined once when its end comes: adding each chunk to the text before it and searching
 * all of it again took a 16 MiB line 10 s and a 100 MiB one (100 KB of gzip) minutes.
 */

/**
 * The longest line a dump file may hold, in bytes. The largest row the contract's bounds allow
 * (DECISIONS.md#bounds: a list of 1,000 members, every string at its maxLength) is under 4 MB even
 * with every character written as an escaped surrogate pair (12 bytes); twice that leaves room for
 * the fields the contract does not describe, which a dump may add (line-bound.test.ts holds the
 * bound above the contract's largest row).
 */
export const lineBound = 8 * 1024 * 1024;

const newline = 0x0a;

/** Cuts the chunks pushed into lines, each told with its number in the file (from 1, blank lines counted). */
export class LineSplitter {
  #pieces: Buffer[] = [];
  #pending = 0;
  #number = 0;
  readonly #onLine: (text: string, number: number) => void;
  readonly #onTooLong: (number: number) => never;
  readonly #bound: number;

  /** `onTooLong` is called with the number of a line past `bound` as soon as it is, and must throw. */
  constructor(onLine: (text: string, number: number) => void, onTooLong: (number: number) => never, bound = lineBound) {
    // Fields set by hand, not as parameter properties: the worker runs as Node strips types, which has none.
    this.#onLine = onLine;
    this.#onTooLong = onTooLong;
    this.#bound = bound;
  }

  /** The lines that end in `chunk`; what follows its last '\n' is kept for the next. */
  push(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(newline); end !== -1; end = chunk.indexOf(newline, start)) {
      this.#line(chunk, start, end);
      start = end + 1;
    }
    if (start === chunk.length) return;
    this.#pending += chunk.length - start;
    if (this.#pending > this.#bound) this.#onTooLong(this.#number + 1);
    // A copy: the chunk's memory is the stream's, and a long line's pieces are kept across chunks.
    this.#pieces.push(Buffer.from(chunk.subarray(start)));
  }

  /** The last line, when no '\n' ends it. */
  end(): void {
    if (this.#pending) this.#line(Buffer.alloc(0), 0, 0);
  }

  #line(chunk: Buffer, start: number, end: number): void {
    this.#number++;
    if (this.#pending + end - start > this.#bound) this.#onTooLong(this.#number);
    // Whole bytes are decoded at once: a character cut between two chunks is joined first.
    const text = this.#pieces.length
      ? Buffer.concat([...this.#pieces, chunk.subarray(start, end)]).toString('utf8')
      : chunk.toString('utf8', start, end);
    this.#pieces = [];
    this.#pending = 0;
    this.#onLine(text, this.#number);
  }
}
