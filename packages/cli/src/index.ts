/**
 * What the kit's command-line tools and the tests that start them share (Node only): reading flags
 * and saying what is wrong the same way, whether this machine can run a command, a free port.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { nearestFlag } from './near.ts';

export { xmlText } from './xml.ts';

export { kitCache } from './kit-cache.ts';

export { processGone } from './process-gone.ts';

export { escapeBidi, printable } from './printable.ts';

export {
  exitCode,
  exitCodeOfK6,
  exitCodes,
  exitCodesHelp,
  exitCodesMarkdown,
  k6ExitCodes,
  k6ExitCodesHelp,
  k6ExitCodesText,
  type ExitReason,
} from './exit-codes.ts';

export {
  setupCaseName,
  setupHtml,
  setupJson,
  setupJunit,
  setupSteps,
  writeSetupReports,
  type ReportFiles,
  type SetupFailure,
  type SetupStep,
} from './setup-failure.ts';

export interface Flags<O extends ParseArgsOptionsConfig> {
  values: ReturnType<typeof parseArgs<{ args: string[]; options: O }>>['values'];
  /** The arguments that are not flags, when the command takes some (`positionals` of readFlags). */
  positionals: string[];
  /** Says what is wrong in one line, pointing at --help, and exits 2. */
  fail: (message: string) => never;
}

/**
 * The name and version of the package that holds `file`: the nearest package.json above it, found
 * through symlinks (npx runs a bin through node_modules/.bin), the same from src/ and dist/.
 */
export function packageOf(file: string): { name: string; version: string } {
  for (let dir = dirname(realpathSync(file)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; version: string };
    if (dirname(dir) === dir) throw new Error(`[investor-graph] no package.json above ${file}`);
  }
}

/**
 * The command that prints `usage`: `name` when the usage's synopsis (its lines up to the first
 * blank or flag line) shows it as one (`investor-graph-load merge`), else the command words that
 * open the synopsis (`investor-graph-mock proxy`), so that a tool whose messages say `[dataset]`
 * still points at `investor-graph-dataset --help`.
 */
export function helpCommand(name: string, usage: string): string {
  const synopsis = usage.split('\n').slice(
    0,
    Math.max(
      1,
      usage.split('\n').findIndex((line) => !line.trim() || /^\s+-/.test(line)),
    ),
  );
  const commands = synopsis
    .map((line) => /^(?:usage:|\s)\s*([a-z][\w-]*(?: [a-z][\w-]*)*)/.exec(line)?.[1])
    .filter((c) => c !== undefined);
  return commands.find((c) => c === name) ?? commands[0] ?? name;
}

/**
 * Parses `args` (unknown flags are errors, said with the nearest known flag and exit 2); `--help`
 * prints the usage and `--version` the running command's package and version, both with exit 0.
 * A leading `--` (pnpm hands its separator through) is not an argument. `positionals` is how many
 * non-flag arguments the command takes (none by default). Bad usage is one line that points at
 * --help: fifty lines of usage under it buried the one that said what was wrong.
 */
export function readFlags<const O extends ParseArgsOptionsConfig>(
  name: string,
  usage: string,
  args: string[],
  options: O,
  { positionals = 0 } = {},
): Flags<O> {
  const fail = (message: string): never => {
    console.error(`[${name}] ${message.replace(/\s*\n\s*/g, ' ')} (see ${helpCommand(name, usage)} --help)`);
    process.exit(2);
  };
  // --version is every command's and wins over anything else on the line, as with npm and git.
  if (args.includes('--version')) {
    const { name: pkg, version } = packageOf(process.argv[1]!);
    console.log(`${pkg} ${version}`);
    process.exit(0);
  }
  let parsed: { values: Flags<O>['values']; positionals: string[] };
  try {
    parsed = parseArgs({ args: args[0] === '--' ? args.slice(1) : args, options, allowPositionals: positionals > 0 });
  } catch (error) {
    const unknown = /^Unknown option '(-[^']+)'/.exec((error as Error).message)?.[1];
    const near =
      unknown &&
      // --version is every command's, though no command lists it among its options.
      nearestFlag(unknown, [...Object.keys(options).map((o) => `--${o}`), '--version']);
    // parseArgs quotes a stray argument whole, and it may be a key: said as argumentShown says it.
    const stray = /^Unexpected argument '([^]*)'\. This command does not take positional arguments/.exec(
      (error as Error).message,
    )?.[1];
    // parseArgs' own message goes on to explain positionals that start with '-': seldom what was meant.
    fail(
      unknown
        ? `Unknown option '${unknown}'${near ? `. Did you mean ${near}?` : ''}`
        : stray !== undefined
          ? `unexpected argument ${argumentShown(stray)}`
          : (error as Error).message,
    );
  }
  if ((parsed!.values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  if (parsed!.positionals.length > positionals)
    fail(`unexpected argument ${argumentShown(parsed!.positionals[positionals]!)}`);
  return { values: parsed!.values, positionals: parsed!.positionals, fail };
}

/**
 * A stray argument as a usage error shows it: often a key left behind a flag (`--plan team igk_...`),
 * which would then sit in CI logs; one that may be a key (the kit's igk_ form, or long) is only described.
 */
export function argumentShown(argument: string): string {
  return /^igk_/i.test(argument) || argument.length >= 24 || /[^\x21-\x7e]/.test(argument)
    ? `of ${argument.length} characters (not shown: it may be a key)`
    : `'${argument}'`;
}

/** Whether `text` can be a key at all: printable ASCII, no space (a secret pasted with its line break is not). */
export function isKeyText(text: string): boolean {
  return /^[\x21-\x7e]+$/.test(text);
}

/** Whether `command args` runs here (k6 needs Go; terminal tests need util-linux's `script`). */
export function canRun(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A loopback port free right now, for a process that takes its port as a flag. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
  });
}

/**
 * Why a file cannot be written at `file` (its folders made first, as a command will), or null.
 * Nothing is made here. A command checks its output files with it before it starts, not after a
 * run of minutes whose results then go nowhere.
 */
export function whyUnwritable(file: string): string | null {
  const path = resolve(file);
  // A folder passes the write check, and the command would then fail writing into it at the end.
  if (existsSync(path) && statSync(path).isDirectory()) return 'is a folder, not a file';
  let existing = existsSync(path) ? path : dirname(path);
  while (!existsSync(existing)) existing = dirname(existing);
  if (existing !== path && !statSync(existing).isDirectory())
    return `cannot be written (${existing} is a file, not a folder)`;
  try {
    accessSync(existing, constants.W_OK);
    return null;
  } catch (error) {
    return `cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message} on ${existing})`;
  }
}
