import { Incidents } from './incidents.ts';
import { runIncidentStoreContract } from './store-contract.test-support.ts';

// The incident store contract on this process's memory (the mock's Redis store runs the same cases).
runIncidentStoreContract({ name: 'memory', open: async () => ({ store: new Incidents(), close: async () => {} }) });
