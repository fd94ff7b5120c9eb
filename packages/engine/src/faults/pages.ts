/** Faults of lists and rows: pages, cursors, filters, and the fields of what they serve. */
import { boundedMap, onJson, onRequest, onRows, rewriteQuery, type Fault } from './fault.ts';
import { everyList, filters, limitMaximum } from './lists.ts';

const isoSecond = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

export const pageFaults = {
  'leak-email': {
    breaks: 'adds a contact e-mail address to the first row of every page',
    wrap: onRows((rows) => void (rows[0] && (rows[0] = { ...rows[0], contact_email: 'partners@example-capital.com' }))),
  },
  'ignore-limit': {
    breaks: 'serves twice the rows that limit asks for',
    wrap: onRequest((request, url) => {
      const limit = url.searchParams.get('limit');
      return limit && /^\d+$/.test(limit)
        ? rewriteQuery(request, (p) => p.set('limit', String(Number(limit) * 2)))
        : null;
    }),
  },
  'repeat-row': {
    breaks: 'starts every page reached by a cursor with the last row of the page before',
    wrap: (next, deps) => {
      // The last row of each page, by the cursor that leads past it.
      const lastRowBehind = boundedMap<string, Record<string, unknown>>();
      return onRows((rows, { url, body }) => {
        const cursor = url.searchParams.get('cursor');
        if (cursor && lastRowBehind.has(cursor) && rows.length) {
          rows.unshift(lastRowBehind.get(cursor)!);
          rows.pop();
        }
        if (typeof body.next_cursor === 'string' && rows.length) lastRowBehind.set(body.next_cursor, rows.at(-1)!);
      })(next, deps);
    },
  },
  'accept-bad-cursor': {
    breaks: 'serves the first page for a cursor it should reject',
    wrap: onJson(async (answer) => {
      if (answer.status === 400 && answer.body.code === 'invalid_cursor')
        await answer.refetch(rewriteQuery(answer.request, (p) => p.delete('cursor')));
    }),
  },
  'unstable-updated-at': {
    breaks: 'moves updated_at on every read, although the content is unchanged',
    wrap: (next, deps) => {
      let tick = 0;
      return onRows((rows) => {
        tick += 1;
        const moved = new Date(Date.now() + tick * 1000).toISOString();
        for (const row of rows) if (typeof row.updated_at === 'string') row.updated_at = moved;
      })(next, deps);
    },
  },
  'ignore-announced-since': {
    breaks: 'ignores announced_since on the first page of rounds',
    wrap: onRequest((request, url) =>
      url.searchParams.has('cursor') ? null : rewriteQuery(request, (p) => p.delete('announced_since')),
    ),
  },
  'bounds-ignored': {
    breaks: "serves a limit past the contract's maximum as if it were the maximum, instead of a 400",
    wrap: onRequest((request, url) => {
      const limit = url.searchParams.get('limit');
      return limit !== null && /^\d+$/.test(limit) && Number(limit) > limitMaximum
        ? rewriteQuery(request, (p) => p.set('limit', String(limitMaximum)))
        : null;
    }),
  },
  'refuse-over-cap': {
    breaks: "answers a limit above the plan's page size with 400 instead of capping it",
    wrap: onJson((answer) => {
      const limit = answer.url.searchParams.get('limit');
      const cap = (answer.body.plan as { rows_per_page?: unknown } | undefined)?.rows_per_page;
      if (
        answer.status === 200 &&
        limit &&
        /^\d+$/.test(limit) &&
        typeof cap === 'number' &&
        (limit.length > 15 || Number(limit) > cap)
      )
        answer.answerWith('invalid_parameter', `limit may be at most ${cap}.`);
    }),
  },
  'first-seen-follows-update': {
    breaks: 'moves first_seen_at to updated_at on every row, as if an update made the record new',
    wrap: onJson(({ status, body }) => {
      if (status !== 200) return;
      const rows = Array.isArray(body.data)
        ? (body.data as Record<string, unknown>[])
        : body.data && typeof body.data === 'object'
          ? [body.data as Record<string, unknown>]
          : [];
      for (const row of rows)
        if (typeof row.updated_at === 'string' && typeof row.first_seen_at === 'string')
          row.first_seen_at = row.updated_at;
    }),
  },
  'drop-service-url': {
    breaks: 'serves rows without their service_url',
    wrap: onRows((rows) => rows.forEach((row) => delete row.service_url)),
  },
  'unknown-evidence-tier': {
    breaks: "gives every investor edge the evidence tier 'rumour', which is none of the decided tiers",
    wrap: onRows((rows) => rows.forEach((row) => 'evidence_tier' in row && (row.evidence_tier = 'rumour'))),
  },
  'endless-cursor': {
    breaks: 'gives the last page of a list a next_cursor, as if more rows followed',
    wrap: onRows(
      (rows, { body, url }) =>
        void (
          body.next_cursor === null &&
          rows.length &&
          url.pathname !== '/api/v1/changes' &&
          (body.next_cursor = 'more')
        ),
    ),
  },
  'default-limit-10': {
    breaks: 'serves 10 rows a page when no limit is given, instead of 100 or the page size',
    wrap: onRequest((request, url) =>
      request.method === 'GET' && !url.searchParams.has('limit') && everyList.test(url.pathname)
        ? rewriteQuery(request, (p) => p.set('limit', '10'))
        : null,
    ),
  },
  'unsorted-pages': {
    breaks: 'serves the rows of each page in descending order of their key',
    wrap: onRows(
      (rows, { url }) =>
        void (url.pathname !== '/api/v1/changes' && url.pathname !== '/api/v1/exports' && rows.reverse()),
    ),
  },
  'cursor-ignores-filters': {
    breaks: 'accepts a cursor with filters other than those it was issued for, serving the walk it was issued for',
    wrap: (next, deps) => {
      // The filters each cursor was issued with.
      const issuedWith = boundedMap<string, URLSearchParams>();
      const edit = onRows((_rows, { body, url }) => {
        if (typeof body.next_cursor !== 'string') return;
        const issued = issuedWith.get(url.searchParams.get('cursor') ?? '');
        const kept = new URLSearchParams();
        for (const k of filters(url.searchParams)) kept.set(k, url.searchParams.get(k)!);
        issuedWith.set(body.next_cursor, issued ?? kept);
      })(next, deps);
      return (request, context) => {
        const issued = issuedWith.get(new URL(request.url).searchParams.get('cursor') ?? '');
        if (!issued) return edit(request, context);
        // Served as the walk it was issued for; remembered under the cursor as sent.
        const served = rewriteQuery(request, (p) => {
          for (const k of filters(p)) p.delete(k);
          issued.forEach((v, k) => p.set(k, v));
        });
        return edit(served, context);
      };
    },
  },
  'sources-without-url': {
    breaks: "drops the url of every investor edge's sources",
    wrap: onRows((rows) =>
      rows.forEach(
        (row) =>
          Array.isArray(row.sources) &&
          (row.sources as Record<string, unknown>[]).forEach((source) => delete source.url),
      ),
    ),
  },
  'fractional-amounts': {
    breaks: 'serves amounts in dollars and cents instead of whole dollars',
    wrap: onRows((rows) =>
      rows.forEach((row) =>
        Object.keys(row).forEach((k) => k.endsWith('_usd') && typeof row[k] === 'number' && (row[k] = row[k] + 0.5)),
      ),
    ),
  },
  'fund-id-uppercase': {
    breaks: 'serves fund ids in capitals, against the decided format',
    wrap: onRows(
      (rows, { url }) =>
        void (
          url.pathname.endsWith('/funds') &&
          rows.forEach((row) => typeof row.id === 'string' && (row.id = row.id.toUpperCase()))
        ),
    ),
  },
  'slug-with-capitals': {
    breaks: 'serves firm slugs with capitals, against the decided format',
    wrap: onRows(
      (rows, { url }) =>
        void (
          url.pathname === '/api/v1/firms' &&
          rows.forEach((row) => typeof row.slug === 'string' && (row.slug = `X${row.slug}`))
        ),
    ),
  },
  'list-member-missing': {
    breaks: 'lists a member that does not exist in every list',
    wrap: onJson(({ status, body, url }) => {
      const list = body.data as { members?: unknown[]; member_count?: number } | undefined;
      if (status !== 200 || !/^\/api\/v1\/lists\/[^/]+$/.test(url.pathname) || !list?.members) return;
      list.members = [{ kind: 'firm', slug: 'no-such-member-firm', name: 'No Such Member' }, ...list.members];
      if (typeof list.member_count === 'number') list.member_count += 1;
    }),
  },
  'as-of-goes-back': {
    breaks: 'states an as_of a day earlier on every other data answer',
    wrap: (next, deps) => {
      // Each mock's own count: one shared by the mocks of a process (a test file runs three side by
      // side) let one mock take every odd answer while another took every even one.
      let tick = 0;
      return onJson(({ status, body }) => {
        if (status === 200 && typeof body.as_of === 'string' && (tick += 1) % 2 === 0)
          body.as_of = isoSecond(Date.parse(body.as_of) - 86_400_000);
      })(next, deps);
    },
  },
  'unpublished-still-listed': {
    breaks: 'keeps unpublished investments in /api/v1/investments, where keyset order puts them',
    wrap: (next, deps) => {
      // The investments the feed says were unpublished, for the store's version.
      let unpublished = { version: -1, ids: [] as string[] };
      const gone = (): string[] => {
        const store = deps.engine?.store;
        if (!store) return [];
        if (unpublished.version !== store.version) {
          const { items } = store.changePage('1970-01-01T00:00:00Z', 0, 100_000);
          unpublished = {
            version: store.version,
            ids: items.filter((c) => c.kind === 'unpublish' && c.resource === 'investment').map((c) => c.key),
          };
        }
        return unpublished.ids;
      };
      return onRows((rows, { url }) => {
        if (url.pathname !== '/api/v1/investments' || rows.length < 2) return;
        // Each back where keyset order puts it, dressed as its neighbour; the page keeps its length.
        for (const id of gone()) {
          const at = rows.findIndex((row) => String(row.id) > id);
          if (at > 0 && rows[at - 1]!.id !== id) {
            rows.splice(at, 0, {
              ...rows[at - 1]!,
              id,
              service_url: `https://investorgraph.example/investments/${id}`,
            });
            rows.pop();
          }
        }
      })(next, deps);
    },
  },
} satisfies Record<string, Fault>;
