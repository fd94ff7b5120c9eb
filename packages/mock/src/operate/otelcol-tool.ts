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
  // Measured on two CPUs (issue #69), the kit's Go caches empty: 227 s through goTool with other
  // work beside it (load 3 to 7), 6 minutes under a load of 11; 1.06 GB of Go caches.
  firstBuild: '4 minutes',
  versionArgs: ['--version'],
};
