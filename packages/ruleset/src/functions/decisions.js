// @ts-check
/** x-assumed markers and the DECISIONS.md headings they name. */
import { createRulesetFunction } from '@stoplight/spectral-core';

/** @import { Node, Result, JsonPath } from './document.js' */

/** The headings of the DECISIONS.md beside a linted file, or null when there is none to read. */
/** @param {string | null | undefined} source @returns {Promise<string[] | null>} */
async function decisionsBeside(source) {
  if (!source || !/^(\/|[A-Za-z]:[\\/])/.test(source)) return null;
  try {
    // Imported late: the ruleset also loads where there is no file system (and then skips this).
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(source.replace(/[^\\/]+$/, 'DECISIONS.md'), 'utf8');
    return [...text.matchAll(/^## (.+)$/gm)].map((m) => /** @type {string} */ (m[1]));
  } catch {
    return null;
  }
}

/**
 * x-assumed must name a heading of DECISIONS.md: `DECISIONS.md#<anchor>`. The headings come from
 * the rule's options, or from the DECISIONS.md beside the linted file; with neither, only the form
 * of each marker is checked.
 */
export const assumedMarkers = createRulesetFunction(
  {
    input: null,
    options: {
      type: ['object', 'null'],
      properties: { headings: { type: 'array', items: { type: 'string' } } },
      additionalProperties: false,
    },
  },
  async (/** @type {Node} */ doc, /** @type {{ headings?: string[] } | null} */ options, context) => {
    const known = options?.headings ?? (await decisionsBeside(context.document.source));
    const anchors = known ? new Set(known.map(anchorOf)) : null;
    /** @type {Result[]} */
    const results = [];
    /** @param {unknown} node @param {JsonPath} path */
    const walk = (node, path) => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, [...path, i]));
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if (k !== 'x-assumed') {
          walk(v, [...path, k]);
          continue;
        }
        for (const marker of Array.isArray(v) ? v : [v]) {
          const m = typeof marker === 'string' ? /^DECISIONS\.md#([a-z0-9-]+)$/.exec(marker) : null;
          if (!m)
            results.push({
              message: `x-assumed must read DECISIONS.md#<heading>, got ${JSON.stringify(marker)}.`,
              path: [...path, k],
            });
          else if (anchors && !anchors.has(/** @type {string} */ (m[1])))
            results.push({
              message: `x-assumed points at #${m[1]}, which is no heading of DECISIONS.md.`,
              path: [...path, k],
            });
        }
      }
    };
    walk(doc, []);
    return results;
  },
);

/** GitHub's anchor for a Markdown heading. @param {string} heading */
export function anchorOf(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}
