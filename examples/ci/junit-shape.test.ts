import { expect, test } from 'vitest';
import { junitProblems } from './junit-shape.ts';

const valid = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="s" tests="2" failures="1" errors="0" time="1.5">
  <testsuite name="s" tests="2" failures="1" errors="0" skipped="0" timestamp="2026-11-22T00:00:00Z">
    <properties><property name="seed" value="5"/></properties>
    <testcase classname="c" name="a" time="0.1"><system-out>25 cases</system-out></testcase>
    <testcase classname="c" name="b"><failure message="broke">why</failure></testcase>
  </testsuite>
</testsuites>`;

test('a report in the shape Jenkins reads has no problem', () => {
  expect(junitProblems(valid)).toEqual([]);
  expect(junitProblems('<testsuites></testsuites>')).toEqual([]);
});

test('properties inside a testcase, as vitest writes annotations, break the schema', () => {
  const broken = valid.replace(
    '<system-out>25 cases</system-out>',
    '<properties><property name="notice" value="25 cases"/></properties>',
  );
  expect(junitProblems(broken)).toEqual([
    'testsuites > testsuite > testcase: <properties> may not be inside <testcase>',
  ]);
});

test('a testsuite without errors, as k6 summaries were written, breaks the schema', () => {
  expect(junitProblems(valid.replace(' failures="1" errors="0" skipped', ' failures="1" skipped'))).toEqual([
    'testsuites > testsuite: <testsuite> needs the attribute errors',
  ]);
});

test('unknown attributes, unknown elements, bad times and broken XML are each named', () => {
  expect(
    junitProblems(valid.replace('<testcase classname="c" name="b">', '<testcase classname="c" name="b" file="x.ts">')),
  ).toEqual(['testsuites > testsuite > testcase: <testcase> may not have the attribute file']);
  expect(junitProblems(valid.replace('<failure message="broke">why</failure>', '<warning>why</warning>'))).toEqual([
    'testsuites > testsuite > testcase: <warning> may not be inside <testcase>',
  ]);
  expect(junitProblems(valid.replace('time="1.5"', 'time="1.5s"'))).toEqual([
    'testsuites: time="1.5s" is not a Surefire time',
  ]);
  expect(junitProblems('<testsuites><testsuite>')[0]).toMatch(/^not well-formed XML/);
});
