/**
 * Who installs what: each reader of the README with the packages their examples run, the one table
 * the README's install lines, `pnpm kit-pack`'s advice and the install test read. A reader's line
 * holds everything its examples start (the CI and load examples try themselves on the mock first).
 */
export interface Reader {
  /** The README's words for them. */
  who: string;
  /** The kit's packages their examples run. */
  kit: string[];
  /** Other packages their examples run, by name (the version is the user's to choose). */
  others: string[];
}

export const readers: readonly Reader[] = [
  {
    who: 'validate the API in CI',
    kit: [
      '@investor-graph/contract-tests',
      '@investor-graph/spectral-ruleset',
      '@investor-graph/load',
      '@investor-graph/mock',
    ],
    others: ['@stoplight/spectral-cli'],
  },
  // vitest: the test examples (the retries against the mock server; MSW's) run in the reader's own vitest.
  { who: 'integrate against a mock server', kit: ['@investor-graph/mock'], others: ['vitest'] },
  { who: 'integrate with MSW in your tests', kit: ['@investor-graph/msw'], others: ['msw', 'vitest'] },
  { who: 'load test', kit: ['@investor-graph/load', '@investor-graph/mock'], others: [] },
  { who: 'develop an agent against the mock', kit: ['@investor-graph/mcp'], others: [] },
];

/** A reader's install line from npm, as the README writes it. */
export function installLine(reader: Reader): string {
  return `npm i -D ${[...reader.kit, ...reader.others].join(' ')}`;
}

/**
 * The kit's packages a reader's line brings in all: theirs and, through each package's
 * dependencies, every package of the kit under them (`dependenciesOf` reads a manifest).
 */
export function closure(names: readonly string[], dependenciesOf: (name: string) => string[]): string[] {
  const all = new Set<string>();
  const visit = (name: string): void => {
    if (all.has(name)) return;
    all.add(name);
    for (const dependency of dependenciesOf(name)) if (dependency.startsWith('@investor-graph/')) visit(dependency);
  };
  for (const name of names) visit(name);
  return [...all].sort();
}
