/**
 * Long work (a dump, a rollup over millions of rows) done a slice at a time, letting the event loop
 * serve other requests between slices, so that only the calls that wait for the work wait.
 */

/** The longest long work runs before it lets other requests in, in ms: about one request's wait. */
export const SLICE_MS = 1;

/**
 * A macrotask, not a microtask: pending I/O (other requests) runs before the build goes on. Node's
 * setImmediate runs right after the I/O it let in; a browser (MSW) has none, and its setTimeout is
 * held to 4 ms when nested (and to a second in a hidden tab), so a message to itself stands in.
 */
const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
export const letOthersIn = (): Promise<void> =>
  new Promise((resolve) => {
    if (immediate) return void immediate(resolve);
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });

/**
 * A pause to call often: it lets other requests in once `sliceMs` have passed since the last, and says whether it did.
 */
export function slices(sliceMs = SLICE_MS): () => Promise<boolean> {
  let sliceStarted = performance.now();
  return async () => {
    if (performance.now() - sliceStarted <= sliceMs) return false;
    await letOthersIn();
    sliceStarted = performance.now();
    return true;
  };
}
