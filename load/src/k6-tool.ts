/** k6 as the kit builds it: go.k6.io/k6/v2, pinned in k6-build/go.mod with every module in go.sum. */
import { join, resolve } from 'node:path';
import type { GoTool } from '@investor-graph/cli/go-tool';

/** The package's folder: one above src/ (the clone) and dist/ (installed), where k6-build/ is. */
const packageDir = resolve(import.meta.dirname, '..');

export const k6Tool: GoTool = {
  name: 'k6',
  env: 'K6_BIN',
  buildDir: join(packageDir, 'k6-build'),
  module: 'go.k6.io/k6/v2',
  // Measured on two CPUs (issue #68): 225 s alone, 446 s beside oasdiff's build (as check-api and pnpm test build).
  firstBuild: '4 minutes, 7.5 beside an oasdiff build,',
  versionArgs: ['version'],
};
