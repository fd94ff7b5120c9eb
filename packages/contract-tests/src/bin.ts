#!/usr/bin/env node
// investor-graph-contract-tests's entry: the Node.js is checked before the command is loaded, so that an older Node
// says in one line which it needs instead of failing inside an import.
import { hideSqliteWarning, keepCompiledCode, requireNode } from '@investor-graph/cli/node-version';

requireNode('investor-graph-contract-tests');
hideSqliteWarning();
// Most of a run's start is compiling vitest, Vite and their dependencies, in this process and its worker.
await keepCompiledCode();
await import('./cli/cli.ts');
