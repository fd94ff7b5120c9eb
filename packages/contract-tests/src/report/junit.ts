/**
 * vitest's JUnit reporter writes a test's annotations as <properties> inside its <testcase>, which
 * the JUnit schema that Jenkins and other strict readers check against does not allow there (only
 * in <testsuite>); such readers reject or mangle the whole file. The CLI's JUnit keeps what each
 * property spent, moved into the testcase's <system-out>, which every reader shows.
 */

/** The same report with each testcase's <properties> turned into <system-out> lines. */
export function annotationsAsOutput(xml: string): string {
  // A testcase with a body (not self-closing); attribute values are escaped, so hold no quote.
  return xml.replace(
    /(<testcase\b(?:[^>"]|"[^"]*")*?(?<!\/)>)([\s\S]*?)(<\/testcase>)/g,
    (_all, open: string, body: string, close: string) => {
      const notes: string[] = [];
      const rest = body.replace(/\s*<properties>([\s\S]*?)<\/properties>/g, (_p, properties: string) => {
        for (const m of properties.matchAll(/<property name="([^"]*)" value="([^"]*)"/g))
          notes.push(`${m[1]}: ${m[2]}`);
        return '';
      });
      if (!notes.length) return `${open}${rest}${close}`;
      const indent = /\n([ \t]*)<\/testcase>$/.exec(`${rest}${close}`)?.[1] ?? '';
      return `${open}${rest.trimEnd()}\n${indent}    <system-out>${notes.join('\n')}</system-out>\n${indent}${close}`;
    },
  );
}
