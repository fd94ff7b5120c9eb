/**
 * Every command line of the kit's READMEs that runs one of its commands (`npx --no -- investor-graph-…`
 * or `node_modules/.bin/investor-graph-…`), read from their code blocks, with the flags it passes: the
 * install test runs each command's --help in the installed project and holds every flag a README
 * passes to the ones its --help names, so a README cannot teach a flag the command lacks.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

export interface ReadmeCommand {
  /** The README, relative to the clone. */
  readme: string;
  line: string;
  command: string;
  /** A bare word right after the command (`proxy`, `diff`, `run`, `merge`, `k6`), or ''. */
  subcommand: string;
  /** The flags the line gives the command (not those after a lone `--`, which go on to k6). */
  flags: string[];
}

/** The READMEs a reader reads: the top-level one and each package's. */
export function readmes(root: string): string[] {
  const found = ['README.md', 'load/README.md', 'examples/README.md'];
  for (const dir of readdirSync(join(root, 'packages'))) found.push(`packages/${dir}/README.md`);
  return found.filter((f) => existsSync(join(root, f)));
}

const invocation = /(?:npx --no -- |node_modules\/\.bin\/)(investor-graph-[a-z-]+)([^|&;>#)`]*)/g;

/** The command lines of one README's code blocks (a line ending in `\` joined to the next). */
export function commandsOf(readme: string, text: string): ReadmeCommand[] {
  const found: ReadmeCommand[] = [];
  let inBlock = false;
  let pending = '';
  for (const raw of text.split('\n')) {
    if (raw.trimStart().startsWith('```')) {
      inBlock = !inBlock;
      pending = '';
      continue;
    }
    if (!inBlock) continue;
    const line = pending + raw.trim();
    if (line.endsWith('\\')) {
      pending = `${line.slice(0, -1)} `;
      continue;
    }
    pending = '';
    // A comment's prose may name a command in passing; only what runs counts.
    const code = line.replace(/(^|\s)#.*$/, '');
    for (const [, command, rest] of code.matchAll(invocation)) {
      const words = rest!.trim().split(/\s+/).filter(Boolean);
      const subcommand = /^[a-z][a-z0-9]*$/.test(words[0] ?? '') ? words[0]! : '';
      const mine = words.slice(0, words.includes('--') ? words.indexOf('--') : undefined);
      const flags = mine.filter((w) => /^--?[a-zA-Z]/.test(w)).map((w) => w.replace(/=.*$/, ''));
      found.push({ readme, line: line.trim(), command: command!, subcommand, flags });
    }
  }
  return found;
}

/** Every README's command lines. */
export function readmeCommands(root: string): ReadmeCommand[] {
  return readmes(root).flatMap((readme) => commandsOf(readme, readFileSync(join(root, readme), 'utf8')));
}

/** The flags of a line that a command's --help does not name: each a sentence a failing test shows. */
export function unknownFlags(command: ReadmeCommand, help: string): string[] {
  return command.flags
    .filter((flag) => !new RegExp(`(^|[\\s,[(])${flag.replace(/[-]/g, '\\-')}(?![\\w-])`, 'm').test(help))
    .map(
      (flag) =>
        `${command.readme}: \`${command.line}\` passes ${flag}, which ` +
        `${[command.command, command.subcommand].filter(Boolean).join(' ')} --help does not name`,
    );
}
