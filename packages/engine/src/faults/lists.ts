/** What the faults of lists read of a list request: which paths are lists, its filters, the largest page. */
import { resolveRef } from '@investor-graph/contract/document';

/** The filters of a query: every parameter but the page's own (limit, cursor). */
export const filters = (params: URLSearchParams): string[] =>
  [...new Set(params.keys())].filter((k) => k !== 'limit' && k !== 'cursor');

/** The paths of every list of the data API. */
export const everyList = /^\/api\/v1\/(firms|companies|rounds|investments|funds|filings|offerings|adv-funds|lists)$/;

/** The largest `limit` the contract takes (DECISIONS.md#bounds). */
export const limitMaximum = (resolveRef({ $ref: '#/components/parameters/Limit' }) as { schema: { maximum: number } })
  .schema.maximum;
