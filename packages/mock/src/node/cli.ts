#!/usr/bin/env node
/**
 * investor-graph-mock: `serve` (the default) runs the stateful mock; `proxy` puts the contract's
 * checks in front of the live service.
 */
const command = process.argv[2];
if (command === 'proxy') await import('./proxy-cli.ts');
else await import('./serve.ts');
