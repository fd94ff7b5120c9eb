/** Writes the rule matrix into the README between its markers: node rule-matrix-readme.ts */
import { readFileSync, writeFileSync } from 'node:fs';
import { renderMatrix } from './src/rule-matrix.ts';

const file = new URL('README.md', import.meta.url);
const text = readFileSync(file, 'utf8');
if (!text.includes('<!-- rule-matrix:start -->')) throw new Error('README.md has no <!-- rule-matrix:start --> ... <!-- rule-matrix:end --> block');
writeFileSync(file, text.replace(/<!-- rule-matrix:start -->\n[^]*<!-- rule-matrix:end -->/, `<!-- rule-matrix:start -->\n${renderMatrix()}<!-- rule-matrix:end -->`));
