/**
 * What counts as people data, written once: the runtime rules (`no-people` in rules.ts, applied to
 * every answer the contract tests and the proxy see) and the Spectral ruleset's
 * `ig-no-person-fields` (applied to the contract's schemas) both read this vocabulary, so a field
 * one of them refuses the other refuses too.
 */

/**
 * Whole field names that describe a person, lower snake case, beyond what `personNameWords` and
 * `personNamePairs` find in any name; a plural (`founders`) counts as its singular. These words
 * also name things about firms and companies inside a longer name (`team_size`, a fund's
 * `general_partner`, `employee_count`, `mobile_app_url`), so only the whole name counts.
 */
export const personFieldNames: readonly string[] = [
  'partner',
  'team',
  'team_member',
  'roster',
  'contact',
  'contact_name',
  'founder',
  'person',
  'people',
  'employee',
  'executive',
  'mobile',
  'profile_url',
];

/**
 * Words that make a field about a person wherever they stand in a compound name: `contact_phone`,
 * `founderEmail`, `linkedin-profile-url`, `ceo_name`.
 */
export const personNameWords: readonly string[] = [
  'email',
  'phone',
  'telephone',
  'fax',
  'linkedin',
  'twitter',
  'facebook',
  'instagram',
  'photo',
  'avatar',
  'headshot',
  'portrait',
  'ceo',
  'cfo',
  'cto',
  'coo',
  'firstname',
  'lastname',
  'fullname',
  'surname',
  'birthday',
  'birthdate',
];

/** Pairs of words that do the same next to each other: `first_name`, `e_mail`, `date_of_birth`, `linkedInUrl`. */
export const personNamePairs: readonly (readonly [string, string])[] = [
  ['first', 'name'],
  ['last', 'name'],
  ['full', 'name'],
  ['given', 'name'],
  ['family', 'name'],
  ['middle', 'name'],
  ['e', 'mail'],
  ['of', 'birth'],
  ['linked', 'in'],
  ['profile', 'photo'],
];

const known = new Set(personFieldNames);
const words = new Set(personNameWords);

/** The words of a name, lower case: snake, camel and kebab case alike (`linkedInURL` is linked, in, url). */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const singular = (word: string): string => (word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word);

/**
 * Whether a field name describes a person: a whole name of `personFieldNames` (or of `extra`, the
 * user's own whole names), a word of `personNameWords` anywhere in it, or a pair of
 * `personNamePairs` side by side. A plural counts as its singular.
 */
export function isPersonFieldName(name: string, extra: readonly string[] = []): boolean {
  const parts = nameWords(name);
  const whole = parts.join('_');
  const own = new Set(extra.map((e) => nameWords(e).join('_')));
  for (const names of [known, own]) if (names.has(whole) || names.has(singular(whole))) return true;
  return parts.some((part, i) => {
    if (words.has(part) || words.has(singular(part))) return true;
    const next = parts[i + 1];
    return next !== undefined && personNamePairs.some(([a, b]) => a === part && (b === next || b === singular(next)));
  });
}

/**
 * Values that are people data wherever they appear: an e-mail address, a phone number, a profile-network or photo URL.
 */
export const personValuePatterns: Readonly<Record<'email' | 'phone' | 'profile', RegExp>> = {
  email: /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/,
  phone: /(\+\d{1,3}[\s.-]?)?\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}/,
  profile: new RegExp(
    String.raw`(linkedin\.com|twitter\.com|x\.com/|facebook\.com|instagram\.com|crunchbase\.com/person|angel\.co/u/|` +
      String.raw`gravatar|\.(jpe?g|png|gif|webp)(\?|$))`,
    'i',
  ),
};

/**
 * Whether a schema (as a contract writes it) holds people data whatever its name: `format: email`,
 * a phone format, or a pattern for profile-network URLs.
 */
export function isPersonSchema(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const { format, pattern } = schema as { format?: unknown; pattern?: unknown };
  if (format === 'email' || format === 'idn-email' || format === 'phone' || format === 'tel') return true;
  return typeof pattern === 'string' && personValuePatterns.profile.test(pattern.replace(/\\/g, ''));
}

/**
 * Whether a string value holds an e-mail address, as `personValuePatterns.email` finds one, in time
 * linear in the value: the pattern alone tries every start of a long run with no `@` to its end
 * (a value of megabytes would hold a checker for hours). An address is looked for around each `@`:
 * the local part's last 64 characters before it, the domain's first 255 after (RFC 5321's bounds).
 */
function holdsEmail(value: string): boolean {
  for (let at = value.indexOf('@'); at !== -1; at = value.indexOf('@', at + 1)) {
    if (
      /[A-Za-z0-9._%+-]$/.test(value.slice(Math.max(0, at - 64), at)) &&
      /^[A-Za-z0-9.-]+\.[A-Za-z]{2,}/.test(value.slice(at + 1, at + 256))
    )
      return true;
  }
  return false;
}

/** Whether a string value holds people data. */
export function isPersonValue(value: string): boolean {
  return holdsEmail(value) || personValuePatterns.phone.test(value) || personValuePatterns.profile.test(value);
}
