/**
 * oasdiff (github.com/oasdiff/oasdiff), the differ behind `investor-graph-contract-tests diff`:
 * where its binary comes from and what it says about two contracts. It is maintained, reads
 * OpenAPI 3.1, and runs over 700 checks (`oasdiff checks changelog`), each with a stable id and a
 * level: error (breaks clients), warning (may break some) or info. Built with the machine's Go from
 * the Go module proxy, once, as k6 is (oasdiff-tool.ts, built by @investor-graph/cli/go-tool).
 */
import { execFile } from 'node:child_process';
import { goTool, howToGet } from '@investor-graph/cli/go-tool';
import { oasdiffTool } from './oasdiff-tool.ts';

/** How a user without oasdiff gets it, said wherever the diff cannot run for want of it. */
export const howToGetOasdiff = howToGet(oasdiffTool);

/** The oasdiff binary, or why there is none. */
export type OasdiffBin = { bin: string } | { missing: string };

/**
 * oasdiff: $OASDIFF_BIN, else the kit's build of it (or one on PATH of the pinned version), built
 * with the machine's Go the first time, saying so on stderr before and after. Without Go nothing
 * is printed: the caller says why in its one line.
 */
export function findOasdiff(): OasdiffBin {
  return goTool(oasdiffTool, (line) => console.error(line));
}

/** One change as oasdiff's JSON changelog gives it (the fields read here). */
export interface OasdiffChange {
  id: string;
  text: string;
  /** 3 error: breaks clients; 2 warning: may break some; 1 info. */
  level: number;
  operation?: string;
  path?: string;
}

/** The levels of oasdiff's JSON output. */
export const oasdiffLevel = { error: 3, warning: 2, info: 1 } as const;

/**
 * Every change from `base` to `revision` (two contract files, YAML or JSON), by oasdiff's
 * changelog. `externalRefs`: whether a $ref to another file is followed (relative to the file that
 * holds it). Only for contracts that are the user's own files: in a contract a service served, a
 * $ref must not make the kit read a local file or call another host, and oasdiff refuses it.
 * Rejects with oasdiff's own first line when it cannot read a file.
 */
export function oasdiffChanges(
  bin: string,
  base: string,
  revision: string,
  { externalRefs = false } = {},
): Promise<OasdiffChange[]> {
  const args = [
    'changelog',
    base,
    revision,
    '--format',
    'json',
    `--allow-external-refs=${externalRefs}`,
    '--lang',
    'en',
  ];
  return new Promise((done, fail) => {
    execFile(
      bin,
      args,
      { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 5 * 60_000 },
      (error, stdout, stderr) => {
        const said = (stderr.split('\n').find((line) => line.trim()) ?? '').replace(/^Error: /, '').trim();
        let changes: unknown;
        try {
          changes = JSON.parse(stdout);
        } catch {
          changes = null;
        }
        // Only a list of changes is an answer: with a .oasdiff.yaml asking for fail-on, a list comes with exit 1.
        if (Array.isArray(changes)) return done(changes as OasdiffChange[]);
        const ended = error
          ? error.killed
            ? 'took over 5 minutes'
            : `exited ${error.code ?? error.signal}`
          : 'printed no list of changes';
        fail(new Error(`oasdiff: ${said || ended}`));
      },
    );
  });
}
