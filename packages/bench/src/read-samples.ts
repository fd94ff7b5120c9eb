// The merge benchmark's peer: reads every *.samples.json.gz in a folder as any merge of k6's samples
// must (gunzip, split into lines, JSON.parse each) and does nothing else with them.
import { createReadStream, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';

const dir = process.argv[2]!;
let lines = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.samples.json.gz'))) {
  let rest = '';
  for await (const chunk of createReadStream(join(dir, file)).pipe(createGunzip()).setEncoding('utf8')) {
    const text = rest + (chunk as string);
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      JSON.parse(text.slice(start, end));
      lines++;
      start = end + 1;
    }
    rest = text.slice(start);
  }
}
console.log(lines);
