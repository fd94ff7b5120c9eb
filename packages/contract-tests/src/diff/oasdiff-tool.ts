/**
 * oasdiff as the kit builds it: github.com/oasdiff/oasdiff, pinned in oasdiff-build/go.mod with
 * every module in go.sum.
 */
import { join, resolve } from 'node:path';
import type { GoTool } from '@investor-graph/cli/go-tool';

/** The package's folder: two above src/diff/ (the clone) and dist/diff/ (installed), where oasdiff-build/ is. */
const packageDir = resolve(import.meta.dirname, '../..');

export const oasdiffTool: GoTool = {
  name: 'oasdiff',
  env: 'OASDIFF_BIN',
  buildDir: join(packageDir, 'oasdiff-build'),
  module: 'github.com/oasdiff/oasdiff',
  // The version oasdiff reports is set at link time, as its own release builds set it.
  ldflags: (version) => `-X github.com/oasdiff/oasdiff/build.Version=${version.replace(/^v/, '')}`,
  // Measured on two CPUs (issue #68): 91 s alone, 266 s beside k6's build (as check-api and pnpm test build).
  firstBuild: '1.5 minutes, 4.5 beside a k6 build,',
  versionArgs: ['--version'],
};
