/**
 * What an agent may read besides the tools: the contract, DECISIONS.md (what the spec left open and
 * how the contract decided it) and the plan table; the control API's document on a mock's server.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultLimit, plans } from '@investor-graph/contract';
import { controlDocument } from '@investor-graph/engine/control';

export interface KitResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  read: () => string;
}

/**
 * A file the contract package ships (its `exports` name it); in the workspace, before a build, the
 * repository's own copy under contracts/.
 */
function contractFile(name: 'openapi.yaml' | 'DECISIONS.md'): string {
  const shipped = fileURLToPath(import.meta.resolve(`@investor-graph/contract/${name}`));
  const source = fileURLToPath(new URL(`../../../contracts/${name}`, import.meta.resolve('@investor-graph/contract')));
  return readFileSync(existsSync(shipped) ? shipped : source, 'utf8');
}

const apiResources: readonly KitResource[] = [
  {
    uri: 'investor-graph://contract/openapi.yaml',
    name: 'openapi.yaml',
    title: 'The Investor Graph API contract (OpenAPI 3.1)',
    description: 'Every operation, parameter, schema and problem of the API; the tools are generated from it.',
    mimeType: 'application/yaml',
    read: () => contractFile('openapi.yaml'),
  },
  {
    uri: 'investor-graph://contract/DECISIONS.md',
    name: 'DECISIONS.md',
    title: "What the contract decided where the spec says 'not shown'",
    description: 'One heading per decision; the contract marks each spot it applies with x-assumed.',
    mimeType: 'text/markdown',
    read: () => contractFile('DECISIONS.md'),
  },
  {
    uri: 'investor-graph://contract/plans.json',
    name: 'plans.json',
    title: 'The plan table',
    description: "Each plan's calls, rows per page, request rate, round lag, changes feed and exports.",
    mimeType: 'application/json',
    read: () => JSON.stringify({ default_limit: defaultLimit, plans }, null, 2),
  },
];

const controlResource: KitResource = {
  uri: 'investor-graph://mock/control-openapi.json',
  name: 'control-openapi.json',
  title: "The mock's control API (OpenAPI 3.1)",
  description: 'The document the control tools are generated from: the clock, keys, journal, incidents.',
  mimeType: 'application/json',
  read: () => JSON.stringify(controlDocument, null, 2),
};

/** The resources of a server, with the control API's document when it has the control tools. */
export function kitResources(control: boolean): readonly KitResource[] {
  return control ? [...apiResources, controlResource] : apiResources;
}
