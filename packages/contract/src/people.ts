/**
 * What counts as people data, written once: the runtime rules (`no-people` in rules.ts, applied to
 * every answer the contract tests and the proxy see) and the Spectral ruleset's
 * `ig-no-person-fields` (applied to the contract's schemas) both read this vocabulary, so a field
 * one of them refuses the other refuses too.
 */

/** Field names that describe a person, lower snake case; a plural (`founders`) counts as its singular. */
export const personFieldNames: readonly string[] = [
  'first_name', 'firstname', 'last_name', 'lastname', 'full_name', 'fullname', 'person', 'people', 'founder', 'partner',
  'team', 'team_member', 'roster', 'employee', 'executive', 'ceo', 'cfo', 'email', 'e_mail', 'contact_email', 'phone',
  'phone_number', 'mobile', 'linkedin', 'linkedin_url', 'twitter', 'twitter_url', 'profile_url', 'photo', 'photo_url',
  'avatar', 'avatar_url', 'headshot', 'contact', 'contact_name',
];

const known = new Set(personFieldNames);

/** Whether a field name describes a person: camelCase and kebab-case are read as snake case. */
export function isPersonFieldName(name: string, extra: readonly string[] = []): boolean {
  const n = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/-/g, '_').toLowerCase();
  const singular = n.endsWith('s') ? n.slice(0, -1) : n;
  return known.has(n) || known.has(singular) || extra.some((e) => e.toLowerCase() === n);
}

/** Values that are people data wherever they appear: an e-mail address, a phone number, a profile-network or photo URL. */
export const personValuePatterns: Readonly<Record<'email' | 'phone' | 'profile', RegExp>> = {
  email: /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/,
  phone: /(\+\d{1,3}[\s.-]?)?\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}/,
  profile: /(linkedin\.com|twitter\.com|x\.com\/|facebook\.com|instagram\.com|crunchbase\.com\/person|angel\.co\/u\/|gravatar|\.(jpe?g|png|gif|webp)(\?|$))/i,
};

/** Whether a string value holds people data. */
export function isPersonValue(value: string): boolean {
  return personValuePatterns.email.test(value) || personValuePatterns.phone.test(value) || personValuePatterns.profile.test(value);
}
