// Types of plan-options.js for the package's Node side (the k6 scripts import the JavaScript).
export interface PlanTable {
  plans: Record<
    string,
    { name: string; rate_per_second: number; rows_per_page: number; changes_feed: boolean; [field: string]: unknown }
  >;
  [field: string]: unknown;
}
export interface RunInputs {
  DURATION: string;
  WALK_MAX_DURATION: string;
  WALK_RESOURCE: string;
  P95_MS: string;
  SCENARIOS: string;
  ONE_KEY: boolean;
}
export declare const inputDefaults: Record<
  'DURATION' | 'WALK_MAX_DURATION' | 'WALK_RESOURCE' | 'P95_MS' | 'SCENARIOS',
  string
>;
export declare const servedTolerance: number;
export declare function runInputs(env: Record<string, string | undefined>): RunInputs;
export declare function planOptions(
  table: PlanTable,
  planId: string,
  inputs: RunInputs,
): {
  plan: PlanTable['plans'][string];
  scenarios: Record<string, Record<string, unknown>>;
  thresholds: Record<string, string[]>;
  turns: string | null;
};
export declare function fingerprint(
  planId: string,
  scenarios: unknown,
  thresholds: unknown,
  sha256hex: (text: string) => string,
): string;
export declare function servedBound(rate: number, duration: string): number;
export declare function segmentLabel(segment: string | null | undefined): string;
export declare function resultFiles(
  planId: string,
  segment: string | null | undefined,
): { summary: string; junit: string; samples: string };
export declare function seconds(duration: string, name?: string): number;
