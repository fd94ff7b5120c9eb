/**
 * Starts what a server needs: against a real service or a mock given by its base URL, or against a
 * mock started in this process (on the embedded dataset or a `--data` folder), whose control plane
 * is then offered as tools too. The key comes from the caller (the CLI reads the environment).
 */
import { startMock, type RunningMock } from '@investor-graph/mock/node';
import { presetPrepaidRows } from '@investor-graph/engine/adapter';
import { createControlClient, type ControlClient } from '@investor-graph/engine/control';
import type { PlanId } from '@investor-graph/contract';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createMcpServer } from './server.ts';
import { Secrets } from './session.ts';

export interface StartOptions {
  /** A service's origin (no /api/v1); a mock is started in this process when it is left out. */
  baseUrl?: string;
  /** The started mock's dataset folder (the embedded dataset by default). */
  data?: string;
  /** The key every session starts with; the started mock knows it, of `keyPlan`. */
  key?: string;
  keyPlan?: PlanId;
  /** `baseUrl` is a mock: offer its control plane, reached with `adminToken` when it is not on loopback. */
  control?: boolean;
  adminToken?: string;
  /** A line a call (redacted); none by default. */
  log?: (line: string) => void;
  version: string;
}

export interface Started {
  /** A new server, with a session of its own, for one transport. */
  newServer: () => Server;
  /** The mock this process started, if it did. */
  mock: RunningMock | undefined;
  baseUrl: string;
  secrets: Secrets;
  close(): Promise<void>;
}

/** The environment's key as the started mock knows it (as --key PLAN=KEY presets one, whose message would show it). */
function presetKey(plan: PlanId, key: string): { plan: PlanId; key: string; prepaidRows?: number } {
  return { plan, key, ...(plan === 'payg' ? { prepaidRows: presetPrepaidRows } : {}) };
}

/** What a server needs, started: the mock when no base URL is given, its control client, the secrets. */
export async function start(options: StartOptions): Promise<Started> {
  const secrets = new Secrets([options.key, options.adminToken]);
  let mock: RunningMock | undefined;
  let control: ControlClient | undefined;
  let baseUrl = options.baseUrl;
  if (baseUrl === undefined) {
    mock = await startMock({
      port: 0,
      ...(options.data ? { data: options.data } : {}),
      ...(options.key ? { keys: [presetKey(options.keyPlan ?? 'team', options.key)] } : {}),
      dumpsAhead: false,
    });
    baseUrl = mock.url;
    control = createControlClient({ baseUrl });
  } else if (options.control) {
    control = createControlClient({ baseUrl, ...(options.adminToken ? { adminToken: options.adminToken } : {}) });
  }
  const target = { baseUrl };
  return {
    newServer: () =>
      createMcpServer({
        target,
        secrets,
        version: options.version,
        ...(options.key ? { key: options.key } : {}),
        ...(control ? { control } : {}),
        ...(options.log ? { log: options.log } : {}),
      }),
    mock,
    baseUrl,
    secrets,
    close: async () => mock?.close(),
  };
}
