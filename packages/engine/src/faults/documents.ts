/** Faults of the feed, the statistics, the nightly dumps and the served contract. */
import { ProblemError } from '../problems.ts';
import { answerBefore, onHeaders, onJson, onRows, type Fault } from './fault.ts';

const isDumpFile = (url: URL): boolean => /^\/api\/v1\/exports\/[^/]+\/[^/]+$/.test(url.pathname);
const isDocument = (url: URL): boolean => url.pathname === '/api/v1/openapi.json';
const isFeed = (url: URL): boolean => url.pathname === '/api/v1/changes';

export const documentFaults = {
  'since-z-only': {
    breaks:
      "refuses a since that is not written YYYY-MM-DDTHH:MM:SSZ (+00:00, a fraction, lowercase), as the kit's " +
      'contract once did',
    wrap: answerBefore((_request, url) => {
      const since = url.searchParams.get('since');
      if (!isFeed(url) || since === null || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(since)) return null;
      return new ProblemError('invalid_parameter', 'since must be YYYY-MM-DDTHH:MM:SSZ.').toAnswer(
        url.pathname,
        'req_fault_since_z_only',
      );
    }),
  },
  'unordered-changes': {
    breaks: 'lists the changes feed out of sequence order',
    wrap: onRows((rows, { url }) => void (isFeed(url) && rows.reverse())),
  },
  'stale-include-rows': {
    breaks: 'serves the rows of include=rows as they were before their change, under the same updated_at',
    wrap: onRows((rows, { url }) => {
      if (!isFeed(url)) return;
      for (const item of rows)
        if (item.row && typeof item.row === 'object')
          item.row = {
            ...item.row,
            name: `${(item.row as { name?: string }).name ?? ''} (before)`,
          };
    }),
  },
  'unknown-change-kind': {
    breaks: "reports changes of a kind other than create, update and unpublish ('delete')",
    wrap: onRows((rows, { url }) => void (isFeed(url) && rows.forEach((row) => (row.kind = 'delete')))),
  },
  'statistics-down': {
    breaks: 'answers every statistics rollup with 500, as a service whose rollup query fails',
    wrap: answerBefore((_request, url) =>
      url.pathname.startsWith('/api/v1/statistics/')
        ? new ProblemError('internal_error', 'The rollup could not be computed.').toAnswer(
            url.pathname,
            'req_fault_statistics_down',
          )
        : null,
    ),
  },
  'statistics-off-by-one': {
    breaks: "counts one round more in rounds-by-year's latest year than its rounds",
    wrap: onJson(({ status, body, url }) => {
      const rows = (body.data as { rows?: { rounds: number }[] } | undefined)?.rows;
      if (status === 200 && url.pathname === '/api/v1/statistics/rounds-by-year' && rows?.length)
        rows[rows.length - 1] = { ...rows.at(-1)!, rounds: rows.at(-1)!.rounds + 1 };
    }),
  },
  'unknown-statistic-400': {
    breaks: 'answers an unknown statistic with 400 instead of 404 unknown_statistic',
    wrap: onJson((a) => {
      if (a.status !== 404 || a.body.code !== 'unknown_statistic') return;
      a.relabel(400, 'invalid_parameter');
    }),
  },
  'unknown-statistic-without-allowed': {
    breaks: 'answers an unknown statistic without the list of allowed names',
    wrap: onJson((a) => void (a.status === 404 && a.body.code === 'unknown_statistic' && delete a.body.allowed)),
  },
  'manifest-wrong-sha': {
    breaks: "states a sha256 in the dump manifest that is not the file's",
    wrap: onJson(({ status, body, url }) => {
      if (status !== 200 || url.pathname !== '/api/v1/exports') return;
      for (const day of (body.data as { files?: { sha256?: string }[] }[]) ?? [])
        for (const file of day.files ?? [])
          if (file.sha256) file.sha256 = file.sha256.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    }),
  },
  'weak-dump-etag': {
    breaks: 'gives a dump file a weak ETag, although its bytes are fixed',
    wrap: onHeaders(
      (h, answer, request) =>
        void (
          answer.status === 200 &&
          isDumpFile(new URL(request.url)) &&
          h.get('etag') &&
          h.set('etag', `W/${h.get('etag')}`)
        ),
    ),
  },
  'bad-dump-date-404': {
    breaks: 'answers a malformed dump date with 404 instead of 400',
    wrap: onJson(
      (a) =>
        void (
          a.status === 400 &&
          a.url.pathname.startsWith('/api/v1/exports/') &&
          a.answerWith('not_found', 'No dump for that day.')
        ),
    ),
  },
  'stale-openapi': {
    breaks: 'serves an /api/v1/openapi.json that lacks the offerings list',
    wrap: onJson(
      ({ body, url }) =>
        void (
          isDocument(url) &&
          body.paths &&
          typeof body.paths === 'object' &&
          delete (body.paths as Record<string, unknown>)['/api/v1/offerings']
        ),
    ),
  },
  'links-missing': {
    breaks: 'serves an /api/v1/openapi.json without the NextPage links of its paged operations',
    wrap: onJson(({ body, url }) => {
      if (!isDocument(url) || !body.paths || typeof body.paths !== 'object') return;
      for (const item of Object.values(
        body.paths as Record<string, { get?: { responses?: Record<string, { links?: unknown }> } }>,
      ))
        delete item.get?.responses?.['200']?.links;
    }),
  },
  'servers-elsewhere': {
    breaks: 'serves an /api/v1/openapi.json whose servers name another host',
    wrap: onJson(
      ({ body, url }) => void (isDocument(url) && (body.servers = [{ url: 'https://api.elsewhere.example/api/v1' }])),
    ),
  },
} satisfies Record<string, Fault>;
