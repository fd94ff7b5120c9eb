/** What a run plans before it spends (plan.ts makes it): each property's cases and spend. */
import type { Spending } from '../client/client.ts';

export interface PropertyPlan {
  id: string;
  /** Why it will not run: its plan, a flag, or the budget. */
  skip?: string;
  /** Boundary cases it runs, of how many it has. */
  boundary: number;
  boundaryTotal: number;
  /** Generated cases it runs, of how many were asked for (--runs; none for a property checked once). */
  generated: number;
  generatedWanted: number;
  /** At most what its planned cases spend. */
  spend: Spending;
}

export interface RunPlan {
  properties: PropertyPlan[];
  spend: Spending;
  /** What the plan was made within. */
  within: Spending;
}
