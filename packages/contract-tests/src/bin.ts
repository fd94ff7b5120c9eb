#!/usr/bin/env node
// investor-graph-contract-tests's entry: the Node.js is checked before the command is loaded, so that an older Node
// says in one line which it needs instead of failing inside an import.
import { hideSqliteWarning, requireNode } from '@investor-graph/cli/node-version';

requireNode('investor-graph-contract-tests');
hideSqliteWarning();
await import('./cli/cli.ts');
