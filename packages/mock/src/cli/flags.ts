/** What the mock's two commands (serve, proxy) add to the kit's flag reading: a port and why listening failed. */
import type { ParseArgsOptionsConfig } from 'node:util';
import { exitCode, readFlags as readKitFlags, type Flags as KitFlags } from '@investor-graph/cli';

export interface Flags<O extends ParseArgsOptionsConfig> extends KitFlags<O> {
  /** Says what is wrong in one line, pointing at --help, and exits 2 (the commands take it off the flags). */
  fail(this: void, message: string): never;
  /** `--port`: 0-65535, 0 picking a free one. */
  port(this: void, text: string): number;
  /** Why listening failed, as the user can act on it. */
  listenFailed(this: void, error: unknown, port: number, host: string): never;
}

export function readFlags<const O extends ParseArgsOptionsConfig>(
  name: string,
  usage: string,
  args: string[],
  options: O,
  extra: { positionals?: number } = {},
): Flags<O> {
  const kit = readKitFlags(name, usage, args, options, extra);
  const { values, positionals } = kit;
  const fail = (message: string): never => kit.fail(message);
  return {
    values,
    positionals,
    fail,
    port(text) {
      const port = Number(text);
      if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0-65535, got ${text}`);
      return port;
    },
    // Not bad usage but the machine (the port is another's): one line and the kit's exit code for a
    // set-up that keeps a command from starting (3, @investor-graph/cli's exit-codes table).
    listenFailed(error, port, host) {
      const e = error as NodeJS.ErrnoException;
      const why = e.code === 'EADDRINUSE' ? `port ${port} on ${host} is in use: pick another with --port` : e.message;
      console.error(`[${name}] ${why}`);
      return process.exit(exitCode.setup);
    },
  };
}

/**
 * `--log` alone is `--log text`, and `--log json` (or `--log text`) its form: made `--log=FORM` so
 * that the flag, a string to node:util's parseArgs, takes its form as the next word or none.
 */
export function logArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '--log') out.push(args[i]!);
    // A word after it is its form (the command refuses one it does not know); a flag or nothing, text.
    else if (args[i + 1] !== undefined && !args[i + 1]!.startsWith('-')) out.push(`--log=${args[++i]}`);
    else out.push('--log=text');
  }
  return out;
}
