/** The file the CLI hands to vitest: the suite, configured through vitest's `provide`. */
import { inject } from 'vitest';
import type { SuiteConfig } from '../core/context.ts';
import { defineContractSuite } from './suite.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One suite per key (one key per plan). */
    contractSuites: SuiteConfig[];
  }
}

for (const config of inject('contractSuites'))
  defineContractSuite(config, { name: `contract tests: ${config.plan} key at ${config.baseUrl}` });
