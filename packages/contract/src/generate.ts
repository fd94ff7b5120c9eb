/**
 * Renders everything derived from `contracts/openapi.yaml`: the JSON form of the document (served
 * at /api/v1/openapi.json and imported by code that must not touch the file system), the plan table
 * (read by every package, and by the k6 scripts through their copy), the TypeScript types, and the
 * operations prism-http reads from the document (its validator's input, read here once instead of
 * at every start: validator.ts). The mock's control API has a document of its own
 * (`packages/engine/src/control/openapi.yaml`), made JSON and types the same way for the engine,
 * which serves it at /__control/openapi.json and types its control client with it. `pnpm generate`
 * writes them; the test `generated files are in step with the contract` fails when someone forgets.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import openapiTS, { astToString } from 'openapi-typescript';
import prismOperations from '@stoplight/prism-http/dist/utils/operations.js';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../..');
export const contractPath = join(repoRoot, 'contracts/openapi.yaml');
const controlSource = 'packages/engine/src/control/openapi.yaml';

const bannerOf = (source: string): string => `// Generated from ${source} by \`pnpm generate\`. Do not edit.\n`;
const banner = bannerOf('contracts/openapi.yaml');

/** A document's TypeScript types, as openapi-typescript writes them. */
async function typesOf(document: Record<string, unknown>): Promise<string> {
  return astToString(await openapiTS(document as never, { alphabetize: false, exportType: true }));
}

/** Every generated file, by path relative to the repository root, with its content. */
export async function renderGenerated(): Promise<Record<string, string>> {
  const yamlText = await readFile(contractPath, 'utf8');
  const document = parse(yamlText) as Record<string, unknown>;
  const plansJson = JSON.stringify(document['x-plans'], null, 2) + '\n';
  const types = await typesOf(document);
  const openapiJson = JSON.stringify(document, null, 2) + '\n';
  // Read from the JSON, as the code that imports it has the document; one operation a line, so
  // that a change to the contract shows as the operations it changed.
  const operations = (await prismOperations.getHttpOperationsFromSpec(JSON.parse(openapiJson) as object)).map((o) =>
    JSON.stringify(o),
  );
  const control = parse(await readFile(join(repoRoot, controlSource), 'utf8')) as Record<string, unknown>;
  return {
    'packages/contract/src/generated/openapi.json': openapiJson,
    'packages/contract/src/generated/plans.json': plansJson,
    // k6 cannot resolve packages: the load scripts carry their own copy, kept in step by the test.
    'load/lib/plans.json': plansJson,
    'packages/contract/src/generated/api.ts': banner + types,
    'packages/contract/src/generated/operations.json': `[\n${operations.join(',\n')}\n]\n`,
    'packages/engine/src/control/generated/openapi.json': JSON.stringify(control, null, 2) + '\n',
    'packages/engine/src/control/generated/api.ts': bannerOf(controlSource) + (await typesOf(control)),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [path, content] of Object.entries(await renderGenerated())) {
    const target = join(repoRoot, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
    console.log(`wrote ${path}`);
  }
}
