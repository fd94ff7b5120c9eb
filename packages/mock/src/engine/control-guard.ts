/**
 * Who may drive /__control, guarded as dev servers guard their own endpoints. Loopback alone is not
 * trust: any web page the developer opens can send requests to 127.0.0.1 (cross-site request
 * forgery) or reach it under a name of its own that resolves there (DNS rebinding). So a loopback
 * caller is admitted only when the request names this mock by a loopback Host (or one the user
 * allowed), carries no foreign Origin, and sends its body as application/json, which a browser
 * cannot do cross-site without a preflight that is refused (the control plane never answers CORS).
 * An admin token (`Authorization: Bearer`) admits any address; wrong tokens are throttled per
 * address. In-process adapters (MSW) have no network to guard.
 */
import { constantTimeEqual } from './hash.ts';
import { ProblemError } from './problems.ts';

export interface GuardContext {
  clientAddress?: string;
  loopback?: boolean;
  /** The request never crossed a network (MSW handlers in the test process or the page). */
  inProcess?: boolean;
  /** Host names besides the loopback ones that name this mock (--allow-host, a listen address). */
  allowedHosts?: readonly string[];
}

/** Failed token tries an address may make in a window before it is refused for the rest of it. */
export const guardLimits = { failures: 5, windowMs: 60_000, addresses: 10_000 } as const;

/** The host name of a Host header, lower-cased, without port or IPv6 brackets; null if malformed. */
export function hostName(host: string | null): string | null {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i.exec(host ?? '');
  return m ? m[1]!.toLowerCase().replace(/^\[|\]$/g, '') : null;
}

export function isLoopbackName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost') || name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

export class ControlGuard {
  /** Per address: failed token tries in the current window. Oldest entries go first when full. */
  private readonly failures = new Map<string, { count: number; since: number }>();

  private readonly adminToken: string | undefined;
  private readonly now: () => number;

  constructor(adminToken: string | undefined, now: () => number = Date.now) {
    this.adminToken = adminToken;
    this.now = now;
  }

  /** Throws the problem that refuses the request; returns when the caller may go on. */
  admit(request: Request, context: GuardContext): void {
    if (context.inProcess) return;
    const address = context.clientAddress ?? 'unknown';
    this.refuseThrottled(address);
    const host = request.headers.get('host');
    const origin = request.headers.get('origin');
    // A browser names the page that sent the request: only this mock's own pages may.
    if (origin !== null && origin !== `http://${host}`) throw new ProblemError('control_forbidden', `Control calls from another origin (${origin.slice(0, 100)}) are refused.`);
    const site = request.headers.get('sec-fetch-site');
    if (site !== null && site !== 'same-origin' && site !== 'none') throw new ProblemError('control_forbidden', `Control calls from a ${site} page are refused.`);
    if (!this.tokenAdmits(request, address)) {
      if (!context.loopback) throw new ProblemError('control_forbidden', 'Control endpoints answer only on loopback, or with the admin token the mock was started with (Authorization: Bearer).');
      const name = hostName(host);
      if (name === null || !(isLoopbackName(name) || context.allowedHosts?.includes(name))) {
        throw new ProblemError('control_forbidden', `The Host ${String(host).slice(0, 100)} does not name this mock: use a loopback name, or start it with --allow-host.`);
      }
    }
    const hasBody = request.body !== null || Number(request.headers.get('content-length') ?? 0) > 0;
    const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (hasBody && type !== 'application/json') throw new ProblemError('unsupported_media_type', 'Control bodies are application/json.');
  }

  /** True when a valid admin token is presented; a wrong or malformed one counts against the address. */
  private tokenAdmits(request: Request, address: string): boolean {
    const authorization = request.headers.get('authorization');
    if (authorization === null) return false;
    const token = /^Bearer ([\x21-\x7e]+)$/.exec(authorization)?.[1];
    if (this.adminToken !== undefined && token !== undefined && constantTimeEqual(token, this.adminToken)) return true;
    this.fail(address);
    throw new ProblemError('control_forbidden', this.adminToken === undefined ? 'This mock was started without an admin token.' : 'The admin token is wrong (Authorization: Bearer TOKEN).');
  }

  private fail(address: string): void {
    const now = this.now();
    const entry = this.failures.get(address);
    if (entry && now - entry.since < guardLimits.windowMs) {
      entry.count++;
      return;
    }
    this.failures.delete(address);
    if (this.failures.size >= guardLimits.addresses) this.failures.delete(this.failures.keys().next().value!);
    this.failures.set(address, { count: 1, since: now });
  }

  private refuseThrottled(address: string): void {
    const entry = this.failures.get(address);
    if (!entry || entry.count < guardLimits.failures) return;
    const left = entry.since + guardLimits.windowMs - this.now();
    if (left <= 0) {
      this.failures.delete(address);
      return;
    }
    const seconds = Math.ceil(left / 1000);
    throw new ProblemError('control_throttled', `Too many wrong admin tokens from this address: try again in ${seconds} s.`, { headers: { 'retry-after': String(seconds) } });
  }
}
