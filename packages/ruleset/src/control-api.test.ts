/**
 * The mock's control API document (`packages/engine/src/control/openapi.yaml`, served at
 * /__control/openapi.json) linted with the kit's ruleset where it applies: spectral:oas
 * (recommended) and the kit's rules that hold for any API of the kit, with the rules that only the
 * data API's conventions make true turned off, each saying why. Zero findings of any severity.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { parse } from 'yaml';
import { createRuleset } from './index.js';
import { lint, type Contract } from './test-rule.ts';

const controlPath = join(import.meta.dirname, '../../engine/src/control/openapi.yaml');
const controlText = readFileSync(controlPath, 'utf8');

/** Rules of the data API alone, off for the control plane, with the reason each does not apply. */
export const dataApiOnly: Record<string, string> = {
  'ig-paths-under-api-v1': 'the control plane lives under /__control, a prefix the contract leaves free',
  'ig-envelope': "control answers are the mock's own records, not data pages with a plan and usage",
  'ig-list-paging': 'no control answer has a data array; the journal pages with entries and next_cursor',
  'ig-row-fields': 'the control plane serves no record of the dataset, so no schema is a row',
  'ig-error-actions': 'actions are the ways to a paid key; the control plane has nothing to buy (its 429 has none)',
  'ig-bearer-security': 'loopback callers need no token; the admin token is the optional bearer scheme',
  'ig-trial-call': "the trial call is the data API's; the control plane makes keys of any plan itself",
  'ig-statistics-names': 'the control plane has no statistics',
};

/** The kit's ruleset without the data API's own rules (Spectral turns off only rules a ruleset extends). */
export function controlRuleset(): ReturnType<typeof createRuleset> {
  const full = createRuleset();
  return { ...full, rules: Object.fromEntries(Object.entries(full.rules).filter(([rule]) => !(rule in dataApiOnly))) };
}

const findings = async (document: Contract | string): Promise<string[]> =>
  (await lint(document, controlRuleset())).map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`);

test('the control API document passes the kit ruleset where it applies, with no finding at all', async () => {
  expect(await findings(controlText)).toEqual([]);
});

test('every rule turned off for the control API is a rule of the kit ruleset', () => {
  const rules = Object.keys(createRuleset().rules);
  expect(Object.keys(dataApiOnly).filter((rule) => !rules.includes(rule))).toEqual([]);
});

test('a broken control document fails: a 429 without Retry-After, an untimed _at, a wrong example', async () => {
  const document = parse(controlText) as Contract;
  delete document.components.responses.Throttled.headers;
  document.components.schemas.KeySummary.properties.created_at = { type: 'string' };
  document.paths['/__control/clock'].get.responses['200'].content['application/json'].examples.default.value.frozen =
    'yes';
  const codes = (await findings(document)).map((f) => f.split(' ')[0]);
  expect(codes).toEqual(expect.arrayContaining(['ig-429-retry-after', 'ig-date-formats', 'oas3-valid-media-example']));
});
