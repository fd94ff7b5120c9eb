/**
 * The OpenTelemetry Collector the trace test sends to, as the kit builds it (as k6 and oasdiff):
 * otelcol-build/main.go, the collector's core with its OTLP receiver and contrib's file exporter,
 * every module pinned in otelcol-build/go.mod and go.sum, built from the Go module proxy.
 */
import { join, resolve } from 'node:path';
import type { GoTool } from '@investor-graph/cli/go-tool';

/** The package's folder: two above src/operate/ (the clone), where otelcol-build/ is. */
const packageDir = resolve(import.meta.dirname, '../..');

export const otelcolTool: GoTool = {
  name: 'otelcol-kit',
  env: 'OTELCOL_BIN',
  buildDir: join(packageDir, 'otelcol-build'),
  module: 'go.opentelemetry.io/collector/otelcol',
  main: '.',
  // Measured on two CPUs (issue #69), modules and build caches empty: 6 minutes on a machine busy
  // with other builds (3.6 CPU-minutes), mostly the modules' download.
  firstBuild: '3 to 6 minutes',
  versionArgs: ['--version'],
};
