#!/usr/bin/env node
/**
 * investor-graph-mock: `serve` (the default) runs the stateful mock; `proxy` puts the contract's
 * checks in front of the live service. The Node.js is checked before anything else is loaded, so
 * that an older Node says in one line which it needs instead of failing inside an import.
 */
import { hideSqliteWarning, keepCompiledCode, requireNode } from '@investor-graph/cli/node-version';

requireNode('investor-graph-mock');
hideSqliteWarning();
// Most of start-up is compiling prism-http and its dependencies.
await keepCompiledCode();

// `pnpm start -- proxy ...` hands the separator through: it is not an argument.
if (process.argv[2] === '--') process.argv.splice(2, 1);
if (process.argv[2] === 'proxy') await import('./proxy-command.ts');
else await import('./serve-command.ts');
