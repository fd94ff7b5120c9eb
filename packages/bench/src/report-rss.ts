// Preloaded (node --import) into a process the bench measures: at its exit, its peak resident memory
// (maxRSS, in KiB) into the file $REPORT_RSS_TO, so the measured program runs unchanged.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  if (process.env.REPORT_RSS_TO) writeFileSync(process.env.REPORT_RSS_TO, String(process.resourceUsage().maxRSS));
});
