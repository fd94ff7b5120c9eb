/**
 * The k6 the tests run: $K6_BIN (`pnpm test` builds it first), else the kit's build, made here with Go as a user's
 * first run makes it.
 */
import { goTool } from '@investor-graph/cli/go-tool';
import { k6Tool } from './k6-tool.ts';

export function k6Binary(): string {
  const found = goTool(k6Tool, (line) => console.error(line));
  if ('missing' in found) throw new Error(found.missing);
  return found.bin;
}
