/** What a sequence's calls keep for later calls (input-forms.ts draws from it, next-pages.ts follows it). */

/** A page whose next page can be asked: the path and query it was asked with, its `next_cursor`, its most rows. */
export interface Followable {
  operationId: string;
  asked: string;
  cursor: string;
  rows: number;
}

/** What earlier calls of a sequence left to use: pages to follow, tags to send back. */
export interface Held {
  /** Pages' `next_cursor`s: each with the query it was given for, and the path and most rows of that call. */
  cursors: (Followable & { query: [string, string][] })[];
  tags: { path: string; tag: string }[];
  /** Calls so far that could serve more than a hundred rows. */
  bigPages: number;
}
