/**
 * The README's examples are copies of files under examples/ that the tests run. A block preceded
 * by `<!-- example: PATH -->` must hold exactly that file.
 *   node examples/readme.ts           rewrite the copies from the files
 *   node examples/readme.ts --check   exit 1 naming each copy that drifted
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const root = join(import.meta.dirname, '..');
const marker = /<!-- example: ([\w./-]+) -->\n```(\w*)\n([\s\S]*?)```/g;

export interface ReadmeExample {
  path: string;
  lang: string;
  /** What the README holds now. */
  shown: string;
  /** What the file holds. */
  file: string;
}

export function readmeExamples(readme: string): ReadmeExample[] {
  return [...readme.matchAll(marker)].map((m) => ({
    path: m[1]!,
    lang: m[2]!,
    shown: m[3]!,
    file: readFileSync(join(root, m[1]!), 'utf8'),
  }));
}

export function syncedReadme(readme: string): string {
  return readme.replace(
    marker,
    (_all, path: string, lang: string) =>
      `<!-- example: ${path} -->\n\`\`\`${lang}\n${readFileSync(join(root, path), 'utf8')}\`\`\``,
  );
}

if (import.meta.main) {
  const file = join(root, 'README.md');
  const readme = readFileSync(file, 'utf8');
  const drifted = readmeExamples(readme).filter((e) => e.shown !== e.file);
  if (process.argv.includes('--check')) {
    for (const e of drifted) console.error(`README.md: the copy of ${e.path} differs from the file (run pnpm readme)`);
    process.exit(drifted.length ? 1 : 0);
  }
  writeFileSync(file, syncedReadme(readme));
  console.log(
    drifted.length
      ? `README.md: refreshed ${drifted.map((e) => e.path).join(', ')}`
      : 'README.md: every example is up to date',
  );
}
