import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The kit's cache folder, where everything built or read once is kept (k6, oasdiff, the Python
 * tools, datasets' databases, npm's cache in the install test, compiled code): $KIT_CACHE, else
 * investor-graph-kit under the user's cache folder ($XDG_CACHE_HOME, else ~/.cache).
 */
export function kitCache(env: NodeJS.ProcessEnv = process.env): string {
  return env.KIT_CACHE || join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'investor-graph-kit');
}
