// @module-tag servers
/**
 * The README's example against the mock server (retry-mock-server.ts, which a reader saves as a
 * test file) starts a server, so the kit's test tiers need vitest's module tag on it; a reader's
 * project defines no such tag (vitest refuses a file naming one it lacks), so the tag is here and the
 * example, imported, registers its tests in this file.
 */
import './retry-mock-server.ts';
