// Types of summary.js for the package's Node side: k6's end-of-test data, as handleSummary gets it.
export interface SummaryMetric {
  type: 'counter' | 'gauge' | 'rate' | 'trend';
  contains: 'default' | 'time' | 'data';
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}
export interface SummaryCheck {
  name: string;
  path: string;
  id: string;
  passes: number;
  fails: number;
}
export interface SummaryData {
  metrics: Record<string, SummaryMetric>;
  root_group?: { name: string; path: string; id: string; groups: unknown[]; checks: SummaryCheck[] };
  options?: { summaryTrendStats?: string[]; [option: string]: unknown };
  state?: { testRunDurationMs?: number; [field: string]: unknown };
  [field: string]: unknown;
}
export declare function junit(data: SummaryData, suite: string, stopped?: string): string;
export declare function k6Summary(data: SummaryData): string;
export declare function thresholdLines(data: SummaryData): string[];
