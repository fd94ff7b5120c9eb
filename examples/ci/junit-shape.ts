/**
 * What CI servers accept as JUnit XML: the rules of the schema Jenkins checks reports against (the
 * xunit plugin's junit-10.xsd, the most common strict reader), written out here as checks so a test
 * can say which element breaks which rule. Every element and attribute the schema allows is listed;
 * anything else is a problem, as it is to a validating reader.
 */
import { XMLParser } from 'fast-xml-parser';

type Node = Record<string, unknown> & { ':@'?: Record<string, string> };

interface ElementRule {
  attributes: string[];
  required?: string[];
  /** Child elements allowed, in any order; `text` allows character data. */
  children: string[];
  text?: boolean;
}

const result = { attributes: ['type', 'message'], children: [], text: true };
const rerun = {
  attributes: ['type', 'message'],
  required: ['type'],
  children: ['stackTrace', 'system-out', 'system-err'],
  text: true,
};
const textOnly = { attributes: [], children: [], text: true };

const rules: Record<string, ElementRule> = {
  testsuites: { attributes: ['name', 'time', 'tests', 'failures', 'errors'], children: ['testsuite'] },
  testsuite: {
    attributes: [
      'name',
      'tests',
      'failures',
      'errors',
      'group',
      'time',
      'skipped',
      'timestamp',
      'hostname',
      'id',
      'package',
      'file',
      'log',
      'url',
    ],
    required: ['name', 'tests', 'failures', 'errors'],
    children: ['testsuite', 'properties', 'testcase', 'system-out', 'system-err'],
  },
  properties: { attributes: [], children: ['property'] },
  property: { attributes: ['name', 'value'], required: ['name', 'value'], children: [] },
  testcase: {
    attributes: ['name', 'time', 'classname', 'group'],
    required: ['name'],
    children: [
      'skipped',
      'error',
      'failure',
      'rerunFailure',
      'rerunError',
      'flakyFailure',
      'flakyError',
      'system-out',
      'system-err',
    ],
  },
  failure: result,
  error: result,
  skipped: result,
  rerunFailure: rerun,
  rerunError: rerun,
  flakyFailure: rerun,
  flakyError: rerun,
  stackTrace: textOnly,
  'system-out': textOnly,
  'system-err': textOnly,
};

/** Times as Surefire writes them: digits, optional thousands commas, optional fraction. */
const timePattern = /^(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?$/;

/** What in `xml` breaks the schema's rules; an empty list when a strict reader accepts it. */
export function junitProblems(xml: string): string[] {
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: true,
  });
  let document: Node[];
  try {
    document = parser.parse(xml, true) as Node[];
  } catch (error) {
    return [`not well-formed XML: ${(error as Error).message}`];
  }
  const roots = document.filter((n) => !('?xml' in n));
  if (roots.length !== 1) return [`one root element expected, found ${roots.length}`];
  const root = nameOf(roots[0]!);
  if (root !== 'testsuites' && root !== 'testsuite') return [`the root is <${root}>, not <testsuites> or <testsuite>`];
  const problems: string[] = [];
  check(roots[0]!, root, problems);
  return problems;
}

function nameOf(node: Node): string {
  return Object.keys(node).find((k) => k !== ':@')!;
}

function check(node: Node, path: string, problems: string[]): void {
  const name = nameOf(node);
  const rule = rules[name];
  if (!rule) {
    problems.push(`${path}: <${name}> is no element of the schema`);
    return;
  }
  const attributes = node[':@'] ?? {};
  for (const attribute of Object.keys(attributes))
    if (!rule.attributes.includes(attribute))
      problems.push(`${path}: <${name}> may not have the attribute ${attribute}`);
  for (const attribute of rule.required ?? [])
    if (!(attribute in attributes)) problems.push(`${path}: <${name}> needs the attribute ${attribute}`);
  if (
    (name === 'testsuite' || name === 'testsuites') &&
    attributes.time !== undefined &&
    !timePattern.test(attributes.time)
  )
    problems.push(`${path}: time="${attributes.time}" is not a Surefire time`);
  for (const child of (node[name] as Node[]) ?? []) {
    if ('#text' in child) {
      if (!rule.text) problems.push(`${path}: <${name}> may not hold text`);
      continue;
    }
    const childName = nameOf(child);
    if (!rule.children.includes(childName)) problems.push(`${path}: <${childName}> may not be inside <${name}>`);
    else check(child, `${path} > ${childName}`, problems);
  }
}
