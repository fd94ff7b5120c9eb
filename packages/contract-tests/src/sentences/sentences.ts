/**
 * The rules as sentences: contracts/SPEC.md and contracts/DECISIONS.md cut into their sentences,
 * and every `x-assumed` spot of the contract, so that the rule matrix can be held to each sentence
 * instead of each heading (a heading counted as checked when any check touched it, while most of
 * its sentences were checked by nothing). The documents are parsed, never copied by hand:
 * `node rule-matrix-readme.ts` writes what this parses into generated/sentences.ts, and
 * rule-matrix.test.ts fails when that file drifts from the documents.
 */

export interface Sentence {
  /**
   * Stable within a version of the documents: `spec 4.3` (section 4, third sentence), `cursor.2`
   * (DECISIONS.md#cursor, second).
   */
  id: string;
  /** `spec` or `decisions`. */
  source: 'spec' | 'decisions';
  /** The spec's section (`4. Endpoints`) or the DECISIONS.md anchor (`cursor`). */
  section: string;
  text: string;
}

export interface AssumedSpot {
  /** JSON pointer into the contract. */
  pointer: string;
  /** DECISIONS.md anchors the spot rests on. */
  anchors: string[];
}

/**
 * Sentences end at `.`, `?` or `!` (a closing quote may follow) before a space and a capital,
 * a backtick, a quote, a parenthesis or a digit: `1.5` and `e.g. this` are not ends.
 */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.?!]"?)\s+(?=[A-Z`"(\d])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

interface Block {
  section: string;
  text: string;
  table: boolean;
}

/** Paragraphs, list items and table rows (not a table's head or its rule line), with the heading above them. */
function blocks(markdown: string): Block[] {
  const out: Block[] = [];
  const lines = markdown.replace(/<!--[^]*?-->/g, '').split('\n');
  let section = '';
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) out.push({ section, text: paragraph.join(' '), table: false });
    paragraph = [];
  };
  lines.forEach((line, i) => {
    const heading = /^#{1,6} (.+)$/.exec(line);
    if (heading) {
      flush();
      section = heading[1]!;
    } else if (!line.trim()) flush();
    else if (line.startsWith('|')) {
      flush();
      if (!line.startsWith('|---') && !lines[i + 1]?.startsWith('|---')) out.push({ section, text: line, table: true });
    } else if (/^(- |\d+\. )/.test(line)) {
      flush();
      paragraph = [line.replace(/^(- |\d+\. )/, '')];
    } else paragraph.push(line.trim());
  });
  flush();
  return out;
}

/** A DECISIONS.md heading as GitHub anchors it. */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

/**
 * The spec's sentences: every sentence of its prose, list items and numbered items, every row of
 * its tables (a row is one statement), and every item of its lists of values. Sub-headings
 * (`### Resources`) count into the numbered section above them.
 */
export function specSentences(markdown: string): Sentence[] {
  const out: Sentence[] = [];
  const counts = new Map<string, number>();
  let top = '0. Preamble';
  let lastSection = '';
  for (const block of blocks(markdown)) {
    if (block.section !== lastSection) {
      lastSection = block.section;
      if (/^\d+\. /.test(block.section)) top = block.section;
    }
    const number = /^(\d+)\./.exec(top)![1]!;
    for (const text of block.table ? [block.text] : splitSentences(block.text)) {
      const n = (counts.get(number) ?? 0) + 1;
      counts.set(number, n);
      out.push({ id: `spec ${number}.${n}`, source: 'spec', section: top, text });
    }
  }
  return out;
}

/**
 * DECISIONS.md's sentences under each heading. Its preamble (how the file itself is kept) and the
 * sentences that quote the spec (`Spec: "..."`, `Spec: silent ...`) state no rule of the API: the
 * spec's own sentences have rows of their own.
 */
export function decisionSentences(markdown: string): Sentence[] {
  const out: Sentence[] = [];
  const counts = new Map<string, number>();
  const firstHeading = markdown.indexOf('\n## ');
  for (const block of blocks(markdown.slice(firstHeading + 1))) {
    const anchor = anchorOf(block.section);
    for (const text of splitSentences(block.text)) {
      if (text.startsWith('Spec:')) continue;
      const n = (counts.get(anchor) ?? 0) + 1;
      counts.set(anchor, n);
      out.push({ id: `${anchor}.${n}`, source: 'decisions', section: anchor, text });
    }
  }
  return out;
}

/** Every spot of the contract marked `x-assumed`, with the decisions it rests on. */
export function assumedSpots(document: unknown): AssumedSpot[] {
  const out: AssumedSpot[] = [];
  const visit = (value: unknown, pointer: string) => {
    if (!value || typeof value !== 'object') return;
    const marked = (value as Record<string, unknown>)['x-assumed'];
    if (!Array.isArray(value) && marked !== undefined) {
      const anchors = (Array.isArray(marked) ? marked : [marked]).map((m) => String(m).replace(/^DECISIONS\.md#/, ''));
      out.push({ pointer: pointer || '/', anchors });
    }
    for (const [key, child] of Object.entries(value))
      visit(child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  };
  visit(document, '');
  return out;
}
