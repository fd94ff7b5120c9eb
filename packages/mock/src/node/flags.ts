/** What the mock's two commands (serve, proxy) share in reading their flags and saying what is wrong. */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

export interface Flags<O extends ParseArgsOptionsConfig> {
  values: ReturnType<typeof parseArgs<{ args: string[]; options: O }>>['values'];
  /** Says what is wrong, with the usage, and exits 2. */
  fail(message: string): never;
  /** `--port`: 0-65535, 0 picking a free one. */
  port(text: string): number;
  /** Why listening failed, as the user can act on it. */
  listenFailed(error: unknown, port: number, host: string): never;
}

/**
 * Parses `args` (unknown flags are errors); `--help` prints the usage and exits 0. A leading `--`
 * (pnpm hands its separator through) is not an argument.
 */
export function readFlags<const O extends ParseArgsOptionsConfig>(name: string, usage: string, args: string[], options: O): Flags<O> {
  const fail = (message: string): never => {
    console.error(`[${name}] ${message}\n\n${usage}`);
    process.exit(2);
  };
  let values: Flags<O>['values'];
  try {
    ({ values } = parseArgs({ args: args[0] === '--' ? args.slice(1) : args, options }));
  } catch (error) {
    fail((error as Error).message);
  }
  if ((values! as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  return {
    values: values!,
    fail,
    port(text) {
      const port = Number(text);
      if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0-65535, got ${text}`);
      return port;
    },
    listenFailed(error, port, host) {
      const e = error as NodeJS.ErrnoException;
      return fail(e.code === 'EADDRINUSE' ? `port ${port} on ${host} is in use: pick another with --port` : e.message);
    },
  };
}
