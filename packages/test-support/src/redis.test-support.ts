/**
 * How the kit's tests and bench start Debian's redis-server, written once: loopback only, on the
 * port and in the folder the caller chose, every write kept in its append-only file (no RDB
 * snapshots), its log in that folder. `fsync` is the one choice: `always` where a test kills the
 * server and counts what came back, `everysec` where the bench measures what the deploy files run.
 */
import { join } from 'node:path';

export function redisServerArgs(port: number, dir: string, fsync: 'always' | 'everysec'): string[] {
  return [
    ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
    ...['--appendonly', 'yes', '--appendfsync', fsync, '--save', ''],
    ...['--daemonize', 'no', '--logfile', join(dir, 'redis.log')],
  ];
}
