import { Journal } from '@investor-graph/engine/adapter';
import { runJournalContract } from './journal-contract.test-support.ts';

// The journal store that starts nothing: the engine's ring in this process's memory. The Redis
// stream runs the same suite against a redis-server of its own: redis/journal-contract.test.ts.
runJournalContract({
  name: 'memory',
  open: (capacity) => Promise.resolve({ journal: new Journal(capacity), close: () => {} }),
});
