#!/usr/bin/env node
/**
 * investor-graph-mcp: the Investor Graph API as MCP tools, over stdio or Streamable HTTP. The Node.js
 * is checked before anything else is loaded, so that an older Node says in one line which it needs.
 */
import { hideSqliteWarning, requireNode } from '@investor-graph/cli/node-version';

requireNode('investor-graph-mcp');
hideSqliteWarning();
await import('./serve.ts');
