/**
 * vitest's JUnit reporter writes a test's annotations as <properties> inside its <testcase>, which
 * the JUnit schema that Jenkins and other strict readers check against does not allow there (only
 * in <testsuite>); such readers reject or mangle the whole file. The CLI's JUnit keeps what each
 * property spent, moved into the testcase's <system-out>, which every reader shows.
 */
import { xmlText } from '@investor-graph/cli/xml';

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

/**
 * The rule matrix's score line as a property of the first suite (the schema's place for one), so a
 * CI reading JUnit alone sees how many rows were checked, covered by the model, or not checked yet.
 */
export function withMatrixScore(xml: string, line: string): string {
  const suite = /<testsuite\b(?:[^>"]|"[^"]*")*?(?<!\/)>/.exec(xml);
  if (!suite) return xml;
  const at = suite.index + suite[0].length;
  const property = `<properties><property name="rule matrix" value="${xmlText(line)}"/></properties>`;
  return `${xml.slice(0, at)}\n    ${property}${xml.slice(at)}`;
}
