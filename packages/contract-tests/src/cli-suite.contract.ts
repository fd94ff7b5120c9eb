/** The file the CLI hands to vitest: the suite, configured through vitest's `provide`. */
import { inject } from 'vitest';
import type { SuiteConfig } from './context.ts';
import { defineContractSuite } from './suite.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    contractSuite: SuiteConfig;
  }
}

const config = inject('contractSuite');
defineContractSuite(config, { name: `contract tests: ${config.plan} key at ${config.baseUrl}` });
