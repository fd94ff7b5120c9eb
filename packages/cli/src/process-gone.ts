/**
 * Whether no process has this pid now: what a file named by its writer's pid (a half-built
 * database, a half-written state file) asks before it is removed. A process of another user is
 * not gone (the kernel says EPERM, not ESRCH).
 */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
