#!/usr/bin/env node
/**
 * investor-graph-mock: `serve` (the default) runs the stateful mock; `proxy` puts the contract's
 * checks in front of the live service.
 */
import { enableCompileCache } from 'node:module';

// Most of start-up is compiling prism-http and its dependencies; V8's code cache on disk (in the
// OS temp folder, or NODE_COMPILE_CACHE) spares every start after the first. Measured in BENCHMARKS.md.
enableCompileCache();

// `pnpm start -- proxy ...` hands the separator through: it is not an argument.
if (process.argv[2] === '--') process.argv.splice(2, 1);
if (process.argv[2] === 'proxy') await import('./proxy-cli.ts');
else await import('./serve.ts');
