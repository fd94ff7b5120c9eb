/**
 * The k6-operator example as a reader applies it: the claim and the merge Job against Kubernetes'
 * schemas (kubernetes-models), and what no schema sees: every pod writes its summary and samples on
 * the shared claim under names the merge finds, the merge Job reads the same claim at the version of
 * the scripts that ran. Each check returns its problems, and each is shown to find one in a broken copy.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { parse, parseAllDocuments } from 'yaml';
import { expect, test } from 'vitest';
import { resultFiles } from '../lib/plan-options.js';

const here = import.meta.dirname;
const version = JSON.parse(readFileSync(join(here, '../package.json'), 'utf8')).version as string;

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { fieldRef?: { fieldPath: string }; secretKeyRef?: { name: string; key: string } };
}
interface Mount {
  name: string;
  mountPath: string;
}
interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string };
}
/** A parsed manifest: its shape is the schemas' to vouch for (first test), these checks read fields. */
type Doc = any;

const documents = (): Doc[] => parseAllDocuments(readFileSync(join(here, 'testrun.yaml'), 'utf8')).map((d) => d.toJS());
const mergeJob = (): Doc => parse(readFileSync(join(here, 'merge-job.yaml'), 'utf8'));

/** Where a claim is mounted, through the volume that names it. */
function mountOf(volumes: Volume[] = [], mounts: Mount[] = [], claim: string): string | undefined {
  const volume = volumes.find((v) => v.persistentVolumeClaim?.claimName === claim);
  return volume && mounts.find((m) => m.name === volume.name)?.mountPath;
}

/** Kubernetes' $(VAR) expansion: only variables defined earlier in the list are replaced. */
function expand(env: EnvVar[], name: string): string | undefined {
  const at = env.findIndex((e) => e.name === name);
  if (at === -1) return undefined;
  return env[at]!.value?.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (all, v: string) =>
    env.slice(0, at).some((e) => e.name === v) ? `<${v}>` : all,
  );
}

/** The runners write their files on the claim, named as the merge reads them. */
function runnerProblems(docs: Doc[]): string[] {
  const problems: string[] = [];
  const claim = docs.find((d) => d.kind === 'PersistentVolumeClaim');
  const run = docs.find((d) => d.kind === 'TestRun');
  if (!claim || !run) return ['testrun.yaml needs a PersistentVolumeClaim and a TestRun'];
  if (!claim.spec.accessModes.includes('ReadWriteMany'))
    problems.push('every runner pod writes to the claim at once: ReadWriteMany');
  if (run.spec.parallelism < 2) problems.push('the example splits the run: parallelism 2 or more');
  const runner = run.spec.runner;
  const mount = mountOf(runner.volumes, runner.volumeMounts, claim.metadata.name);
  if (!mount) return [...problems, `the runners do not mount ${claim.metadata.name}`];
  const env: EnvVar[] = runner.env ?? [];
  const results = expand(env, 'RESULTS_DIR');
  if (results !== mount)
    problems.push(
      `RESULTS_DIR (${results}) is not the claim's mount (${mount}): the summaries would be lost with the pods`,
    );
  const out = expand(env, 'K6_OUT') ?? '';
  const file = /^json=(.+)$/.exec(out)?.[1];
  if (!file || !file.startsWith(`${mount}/`))
    problems.push(`K6_OUT (${out}) does not write k6's JSON samples on the claim (${mount})`);
  else if (!/\.samples\.json\.gz$/.test(file))
    problems.push(`K6_OUT's file ${file} is not named *.samples.json.gz, which the merge reads`);
  else if (!file.includes('<POD_NAME>'))
    problems.push(`K6_OUT's file ${file} is the same for every pod (name it by $(POD_NAME), defined before it)`);
  const podName = env.find((e) => e.name === 'POD_NAME');
  if (podName && podName.valueFrom?.fieldRef?.fieldPath !== 'metadata.name')
    problems.push("POD_NAME comes from the pod's metadata.name");
  if (!runner.securityContext?.fsGroup)
    problems.push('grafana/k6 runs as a non-root user: give the pod an fsGroup so it may write to the claim');
  for (const key of ['API_KEY', 'API_KEY_BURST', 'API_KEY_WALK']) {
    const e = env.find((v) => v.name === key);
    if (!e?.valueFrom?.secretKeyRef) problems.push(`${key} comes from a Secret, never a value in the manifest`);
  }
  return problems;
}

/** The merge Job reads the same claim, with the version of the scripts that ran. */
function mergeProblems(job: Doc, docs: Doc[]): string[] {
  const problems: string[] = [];
  const claim = docs.find((d) => d.kind === 'PersistentVolumeClaim')?.metadata.name;
  const pod = job.spec.template.spec;
  const container = pod.containers[0];
  const mount = mountOf(pod.volumes, container.volumeMounts, claim);
  if (!mount) return [`the merge Job does not mount ${claim}`];
  const command: string[] = [...(container.command ?? []), ...(container.args ?? [])];
  const at = command.indexOf('investor-graph-load');
  if (at === -1 || command[at + 1] !== 'merge' || command[at + 2] !== mount)
    problems.push(`the Job runs investor-graph-load merge ${mount}: ${command.join(' ')}`);
  const pinned = command.find((c) => c.startsWith('--package='));
  if (pinned !== `--package=@investor-graph/load@${version}`)
    problems.push(`the Job installs @investor-graph/load@${version}, the version of these scripts: ${pinned}`);
  if (job.spec.backoffLimit !== 0) problems.push('a failed verdict is an answer, not a crash to retry: backoffLimit 0');
  return problems;
}

test('the claim and the merge Job are valid Kubernetes objects', () => {
  const claim = documents().find((d) => d.kind === 'PersistentVolumeClaim');
  expect(() => new PersistentVolumeClaim(claim).validate()).not.toThrow();
  expect(() => new Job(mergeJob()).validate()).not.toThrow();
  const broken = structuredClone(mergeJob());
  broken.spec.template.spec.containers[0].volumeMounts = 'results';
  expect(() => new Job(broken).validate()).toThrow();
});

test('each runner pod writes its summary and its samples on the shared claim, named so the merge finds them', () => {
  expect(runnerProblems(documents())).toEqual([]);
  // The summary's name the script gives a part, which the merge pairs with the pod's samples.
  expect(resultFiles('business', '0:1/2').summary).toBe('business.0-1of2.summary.json');
  const variants: [string, (docs: Doc[]) => void, RegExp][] = [
    [
      'results off the claim',
      (d) => (d[1].spec.runner.env.find((e: EnvVar) => e.name === 'RESULTS_DIR').value = '/tmp'),
      /RESULTS_DIR/,
    ],
    [
      'samples off the claim',
      (d) => (d[1].spec.runner.env.find((e: EnvVar) => e.name === 'K6_OUT').value = 'json=/tmp/x.samples.json.gz'),
      /K6_OUT/,
    ],
    [
      'one samples file for every pod',
      (d) =>
        (d[1].spec.runner.env.find((e: EnvVar) => e.name === 'K6_OUT').value =
          'json=/results/business.samples.json.gz'),
      /same for every pod/,
    ],
    [
      'POD_NAME defined after its use',
      (d) =>
        d[1].spec.runner.env.push(
          d[1].spec.runner.env.splice(
            d[1].spec.runner.env.findIndex((e: EnvVar) => e.name === 'POD_NAME'),
            1,
          )[0],
        ),
      /same for every pod/,
    ],
    ['a claim one pod at a time', (d) => (d[0].spec.accessModes = ['ReadWriteOnce']), /ReadWriteMany/],
    [
      'a key in the manifest',
      (d) => (d[1].spec.runner.env.find((e: EnvVar) => e.name === 'API_KEY_BURST').valueFrom = undefined),
      /API_KEY_BURST comes from a Secret/,
    ],
  ];
  for (const [name, breakIt, problem] of variants) {
    const docs = documents();
    breakIt(docs);
    expect(runnerProblems(docs).join('\n'), name).toMatch(problem);
  }
});

test(`the merge Job reads the same claim with the scripts' own version and reports the verdict as its exit \
code`, () => {
  expect(mergeProblems(mergeJob(), documents())).toEqual([]);
  const other = mergeJob();
  other.spec.template.spec.volumes[0].persistentVolumeClaim.claimName = 'elsewhere';
  expect(mergeProblems(other, documents()).join('\n')).toMatch(/does not mount/);
  const unpinned = mergeJob();
  unpinned.spec.template.spec.containers[0].command = unpinned.spec.template.spec.containers[0].command.map(
    (c: string) => c.replace(/@\d[\d.]*$/, ''),
  );
  expect(mergeProblems(unpinned, documents()).join('\n')).toMatch(/the version of these scripts/);
  const retried = mergeJob();
  retried.spec.backoffLimit = 3;
  expect(mergeProblems(retried, documents()).join('\n')).toMatch(/backoffLimit 0/);
});
