/**
 * The process that checks the validation proxy's large answers (process.ts starts it): the
 * same checks as on the proxy's thread (proxy/check.ts), with a contract validator of its own,
 * one job at a time. A process and not a worker thread: a check that runs out of heap aborts the
 * whole process it is in (V8's fatal out-of-memory, which a worker's resourceLimits do not always
 * catch: nodejs/node#47224), and this way that is this process, not the proxy. In node/ because it
 * is a Node entry; the checks themselves stay in proxy/, which runs anywhere.
 */
import { createContractValidator } from '@investor-graph/contract';
import { checkExchange, type CheckJob, type CheckResult } from '../check.ts';

export type CheckReply = CheckResult | { error: string };

// Listening before the validator is ready: a job sent meanwhile waits for it rather than being lost.
const ready = createContractValidator();
const reply = (message: CheckReply): void => void process.send!(message);
process.on('message', (job: CheckJob) => {
  ready
    .then((validator) => checkExchange(validator, job))
    .then(reply, (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }));
});
// The proxy gone (its channel closed), there is no one left to check for. A terminal's Ctrl-C
// reaches this process too: the proxy decides when it ends, and records what it was checking.
process.on('disconnect', () => process.exit(0));
process.on('SIGINT', () => undefined);
