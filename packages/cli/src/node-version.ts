/**
 * Which Node.js the kit's published packages run on, in one place: `engines` of every package.json
 * says the same (a test holds them to it), and every command checks it before anything else.
 *
 * This module imports nothing statically (keepCompiledCode loads `node:module` when an entry calls
 * it, after the check) and uses only what Node 14.8 runs (the entries' top-level await is the newest
 * of it): a command's entry imports it statically and everything else dynamically after the check,
 * so that an older Node prints one line and exits 2 instead of failing inside an import (Node 20
 * stopped at `enableCompileCache`).
 */

/**
 * The oldest 22 LTS that has what the kit uses: `node:sqlite` without a flag (22.13), and its
 * `isOpen` (22.15), `setReturnArrays` and the `timeout` option (22.16). Node 23 never had
 * `setReturnArrays`, so it is left out; every 24 has it all.
 */
export const nodeFloor = { major: 22, minor: 16, patch: 0 };

/** `engines.node` as every public package.json writes it. */
export const enginesNode = `^${nodeFloor.major}.${nodeFloor.minor}.${nodeFloor.patch} || >=${nodeFloor.major + 2}.0.0`;

/** Whether a Node version (`process.versions.node`, "22.16.0") is one the kit runs on. */
export function supportsNode(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  if (major >= nodeFloor.major + 2) return true;
  if (major !== nodeFloor.major) return false;
  return minor > nodeFloor.minor || (minor === nodeFloor.minor && patch >= nodeFloor.patch);
}

/** The one line an unsupported Node gets. */
export function unsupportedNodeLine(command: string, version: string): string {
  return (
    `[${command}] needs Node.js ${nodeFloor.major}.${nodeFloor.minor} or newer (${nodeFloor.major} LTS or ` +
    `${nodeFloor.major + 2}); this is Node.js ${version}`
  );
}

/** Exits 2 with that line unless this Node is one the kit runs on. */
export function requireNode(command: string): void {
  if (supportsNode(process.versions.node)) return;
  console.error(unsupportedNodeLine(command, process.versions.node));
  process.exit(2);
}

let sqliteWarningHidden = false;

/**
 * Leaves out the warning Node 22 prints on every start of a command that opens `node:sqlite`
 * (marked experimental there, stable in 24): the kit relies only on what it tests on 22.16, and a
 * user can do nothing about the line. Every other warning is printed as before.
 */
export function hideSqliteWarning(): void {
  // Once a process: the commands call it, and so does the mock's library each time it loads SQLite.
  if (sqliteWarningHidden) return;
  sqliteWarningHidden = true;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with .call(this), as Node calls it
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    const type =
      typeof rest[0] === 'string'
        ? rest[0]
        : ((rest[0] as { type?: string } | undefined)?.type ?? (warning as Error).name);
    if (type === 'ExperimentalWarning' && /\bSQLite\b/i.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  };
}

/**
 * Keeps V8's code for what this command compiles on disk (the OS temp folder, or NODE_COMPILE_CACHE)
 * and hands the folder to the Node processes it starts (the contract tests' vitest worker, the
 * mock's dump worker): most of a start is compiling dependencies, and each start after the first
 * reads them back instead (measured in BENCHMARKS.md). A folder that cannot be written only costs
 * the speed: Node says nothing and runs on.
 */
export async function keepCompiledCode(): Promise<void> {
  const { enableCompileCache } = await import('node:module');
  const { directory } = enableCompileCache();
  if (directory) process.env.NODE_COMPILE_CACHE ??= directory;
}
