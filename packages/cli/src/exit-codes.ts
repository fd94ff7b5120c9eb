/**
 * What every command of the kit means by each exit code: the one table each command's --help, the
 * README's table and the tests read. The codes are the same across commands (a CI step can branch
 * on 2 or 3 whichever command it ran); what a command says beside a code is its own.
 */
export const exitCode = {
  /** Everything it checked held, or it did its work and stopped cleanly. */
  held: 0,
  /** The API broke what it checked: a property, a rule, a threshold, a change that breaks clients. */
  failed: 1,
  /** Bad usage: a flag, argument or variable missing or wrong (one line, pointing at --help). */
  usage: 2,
  /**
   * A set-up that kept the run from starting: the service unreachable, a key refused, a tool not
   * there, an input that cannot be read, a port taken (one line; the reports asked for say the same).
   */
  setup: 3,
  /** The kit's own failure, not the service's or the caller's (sysexits' EX_SOFTWARE). */
  internal: 70,
  /** Interrupted (Ctrl-C or SIGTERM, or a second Ctrl-C): 128 + SIGINT, as a shell reports it. */
  interrupted: 130,
} as const;

export type ExitReason = keyof typeof exitCode;

/**
 * k6 run's own exit codes (its errext/exitcodes), each as the kit's table reads it: what
 * `investor-graph-load run` exits with when k6 exits with it. A code not listed is the kit's own
 * failure (70), said in one line with k6's code.
 */
export const k6ExitCodes: Record<number, { reason: ExitReason; k6: string }> = {
  0: { reason: 'held', k6: 'every threshold held' },
  99: { reason: 'failed', k6: 'a threshold failed' },
  100: { reason: 'setup', k6: 'setup() timed out' },
  104: { reason: 'usage', k6: 'the configuration is invalid' },
  105: { reason: 'interrupted', k6: 'stopped from outside' },
  108: { reason: 'setup', k6: "the script stopped before its scenarios, by the kit's pre-flight" },
  255: { reason: 'usage', k6: 'its command line is wrong' },
};

/** The kit's exit code for k6 run's (a signal's 128 + n among them: SIGINT and SIGTERM are interrupted). */
export function exitCodeOfK6(code: number): number {
  const known = k6ExitCodes[code];
  if (known) return exitCode[known.reason];
  return code === 130 || code === 143 ? exitCode.interrupted : exitCode.internal;
}

/** The mapping as a sentence, for --help and the READMEs. */
export const k6ExitCodesText =
  "k6's own codes: " +
  Object.entries(k6ExitCodes)
    .filter(([code]) => code !== '0')
    .map(([code, { reason, k6 }]) => `${code} (${k6}) is ${exitCode[reason]}`)
    .join(', ') +
  ', any other 70';

/** Each command's meaning of the codes it gives, in the order of the codes. A code it never gives is absent. */
export const exitCodes: Record<string, Partial<Record<ExitReason, string>>> = {
  'investor-graph-mock': {
    held: 'stopped (Ctrl-C or SIGTERM) after answering the calls in flight',
    usage:
      'bad usage: a flag or its value is wrong, or the dataset, state file or Redis server it names ' +
      'cannot be used (one line)',
    setup: 'the mock could not start: the port is taken (one line)',
    interrupted: 'a second Ctrl-C: stopped at once',
  },
  'investor-graph-mock proxy': {
    held: 'no answer broke the contract',
    failed: 'an answer broke the contract (the report says which rule)',
    usage: 'bad usage: a flag or its value is wrong (one line)',
    setup: 'the proxy could not start: the port is taken (one line; --junit, --report and --html say the same)',
    internal: "a failure of the proxy's own, not the service's (its reports say so)",
  },
  'investor-graph-contract-tests': {
    held: 'every property and rule held',
    failed: 'a property or rule broke (the report says which, with the line that replays it)',
    usage: 'bad usage: a flag is missing or wrong, or a report or page cannot be written where it names (one line)',
    setup:
      'the run could not start: the service is unreachable, TLS failed, the key was refused, or the key is ' +
      'of another plan than --plan, --use-control meets no control API, OASDIFF_BIN names no oasdiff, or ' +
      'vitest could not start the suite (one line says what to fix; --junit, --report and --html say the same)',
  },
  'investor-graph-contract-tests diff': {
    held: 'no change that breaks clients',
    failed:
      'a change that breaks clients (each is listed), or no contract to compare: the service answered an ' +
      'error, a page or a document oasdiff cannot read',
    usage: 'bad usage: a flag is missing or wrong, a file is missing or no contract (one line)',
    setup:
      'the diff could not run: the service is unreachable, or there is no oasdiff (set OASDIFF_BIN, or ' +
      'install Go) (one line; --junit and --report say the same)',
  },
  'investor-graph-check-api': {
    held: 'every step held',
    failed: 'a step failed (its JUnit says which check)',
    usage:
      'bad usage: a flag, argument or variable is missing or wrong, or the results folder cannot be made ' +
      '(one line)',
    setup:
      'the check could not start: a tool it drives is not installed (k6 among them, found or built before ' +
      'any step), the service is unreachable, the key was refused or is of another plan than --plan, or no ' +
      'trial key was given (one line says what to fix; contract-tests.xml, .json and .html say the same)',
    interrupted: 'interrupted',
  },
  'investor-graph-dataset': {
    held: 'the dataset is written',
    usage: 'bad usage: a flag or its value is wrong, or --out cannot be written (one line)',
  },
  'investor-graph-dataset sync': {
    held: 'the folder is a whole copy of the service, up to date',
    failed:
      'stopped before the end: the budget of this run, a 402 (quota or balance), or a service that kept ' +
      'failing or answered what the sync cannot use; what was written is kept, and the same command goes on ' +
      'from there (one line says why and how)',
    usage:
      'bad usage: a flag or its value is wrong, no key, --out holds files no sync wrote or another ' +
      "service's copy, or not on a terminal without --yes (one line)",
    setup:
      'the sync could not start: the service is unreachable, the key was refused, or its plan has no ' +
      'changes feed (the trial) (one line)',
    internal: "a failure of the kit's own, not the service's (one line)",
    interrupted: 'interrupted (Ctrl-C or SIGTERM): what was written is kept, and the same command goes on',
  },
  'investor-graph-load run': {
    held: "every threshold of the plan's script held",
    failed: 'a threshold failed (k6 exited 99)',
    usage:
      'bad usage: a flag or the plan is wrong, a part of a split run without API_KEY (its parts must share ' +
      "keys), or k6 refused its arguments or configuration (k6's 104 or 255) (one line)",
    setup:
      'the run could not start: no k6 (set K6_BIN or --k6, or install Go), the service is unreachable, or ' +
      "it refused a key; checked before k6 starts, and by the script's pre-flight (k6's 108) (one line; the " +
      'JUnit, the summary and the report say the same)',
    internal: "k6 failed in a way of its own (any other code of k6's, said in one line)",
    interrupted: 'interrupted (Ctrl-C or SIGTERM; k6 105)',
  },
  'investor-graph-load merge': {
    held: 'every threshold of the merged run held',
    failed: 'a threshold of the merged run failed',
    usage:
      'bad usage: a flag is wrong, the parts are not one whole run (one missing, two overlapping, another ' +
      'plan or script), or the verdict cannot be written where --out says (one line)',
    setup: 'a part did not start (its summary says why) (one line)',
  },
  'investor-graph-mcp': {
    held: 'stopped: the client closed stdio, or Ctrl-C or SIGTERM',
    usage: 'bad usage: a flag or its value is wrong (one line)',
    setup: 'could not start: the dataset cannot be read, or the port is taken (one line)',
  },
  'investor-graph-load k6': {
    held: 'the path of the k6 the scripts run with is printed',
    setup: 'there is no k6 and none can be built here (one line says how to get one)',
  },
};

/** Words of `text` in lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** The "exit codes:" block of a command's --help, from the table (`heading` for a command of several). */
export function exitCodesHelp(command: string, heading = 'exit codes:'): string {
  const rows = exitCodes[command];
  if (!rows) throw new Error(`no exit codes for ${command} in @investor-graph/cli's table`);
  const lines = (Object.entries(rows) as [ExitReason, string][]).flatMap(([reason, meaning]) =>
    wrap(meaning, 92).map((part, i) => `  ${(i ? '' : String(exitCode[reason])).padEnd(5)}${part}`),
  );
  return [heading, ...lines].join('\n');
}

/** k6's own codes as the kit reads them, for investor-graph-load's --help: wrapped, under its exit codes. */
export function k6ExitCodesHelp(): string {
  return wrap(`(${k6ExitCodesText})`, 97)
    .map((line) => `  ${line}`)
    .join('\n');
}

/** The README's table: a row per command and code it gives. */
export function exitCodesMarkdown(): string {
  const rows = Object.entries(exitCodes).flatMap(([command, meanings]) =>
    (Object.entries(meanings) as [ExitReason, string][]).map(
      ([reason, meaning], i) => `| ${i ? '' : `\`${command}\``} | ${exitCode[reason]} | ${meaning} |`,
    ),
  );
  return ['| command | exit code | meaning |', '|---|---|---|', ...rows].join('\n');
}
