import { expect, test } from 'vitest';
import { annotationsAsOutput } from './junit.ts';

const vitestJunit = `<testsuite name="s" tests="2" failures="0" errors="0">
        <testcase classname="c" name="a &gt; conforms" time="0.9">
            <properties>
                <property name="notice" value="4 cases, 4 calls, 42 rows; assumed (limit)">
                </property>
            </properties>
        </testcase>
        <testcase classname="c" name="rule x" time="0"/>
        <testcase classname="c" name="b" time="0.1">
            <failure message="broke">why</failure>
        </testcase>
    </testsuite>`;

test("a testcase's annotations become its system-out, and nothing else moves", () => {
  const out = annotationsAsOutput(vitestJunit);
  expect(out).not.toContain('<properties>');
  expect(out).toContain(
    '<testcase classname="c" name="a &gt; conforms" time="0.9">\n            ' +
      '<system-out>notice: 4 cases, 4 calls, 42 rows; assumed (limit)</system-out>\n        ' +
      '</testcase>',
  );
  expect(out).toContain('<testcase classname="c" name="rule x" time="0"/>');
  expect(out).toContain('<failure message="broke">why</failure>');
});

test('a report without annotations is left exactly as it was', () => {
  const plain = vitestJunit.replace(/\s*<properties>[\s\S]*?<\/properties>/, '');
  expect(annotationsAsOutput(plain)).toBe(plain);
});
