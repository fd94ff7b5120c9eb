/**
 * Who may drive /__control, guarded as dev servers guard their own endpoints. Loopback alone is not
 * trust: any web page the developer opens can send requests to 127.0.0.1 (cross-site request
 * forgery) or reach it under a name of its own that resolves there (DNS rebinding). So a loopback
 * caller is admitted only when the request names this mock by a loopback Host (or one the user
 * allowed), carries no foreign Origin, and sends its body as application/json, which a browser
 * cannot do cross-site without a preflight that is refused (the control plane never answers CORS).
 * An admin token (`Authorization: Bearer`) admits any address; tries of it are throttled per
 * address. In-process adapters (MSW) have no network to guard.
 */
import { bearerOf, shorten } from '@investor-graph/cli/redact';
import type { RateLimiter } from '../stores/rate-limiter.ts';
import { constantTimeEqual } from '../hash.ts';
import { ProblemError } from '../problems.ts';

export interface GuardContext {
  clientAddress?: string;
  loopback?: boolean;
  /** The request never crossed a network (MSW handlers in the test process or the page). */
  inProcess?: boolean;
  /** Host names besides the loopback ones that name this mock (--allow-host, a listen address). */
  allowedHosts?: readonly string[];
}

/**
 * Admin-token tries an address may make: a burst of five, then one every twelve seconds (five a
 * minute), from the store's buckets, so replicas on one store share them.
 */
export const guardLimits = { burst: 5, perSecond: 5 / 60 } as const;

/** The host name of a Host header, lower-cased, without port or IPv6 brackets; null if malformed. */
export function hostName(host: string | null): string | null {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i.exec(host ?? '');
  return m ? m[1]!.toLowerCase().replace(/^\[|\]$/g, '') : null;
}

export function isLoopbackName(name: string): boolean {
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}

export class ControlGuard {
  private readonly adminToken: string | undefined;
  private readonly limiter: RateLimiter;

  /** `limiter`: the buckets admin-token tries are counted in (the key store's, shared by replicas on it). */
  constructor(adminToken: string | undefined, limiter: RateLimiter) {
    this.adminToken = adminToken;
    this.limiter = limiter;
  }

  /** Throws the problem that refuses the request; returns when the caller may go on. */
  async admit(request: Request, context: GuardContext): Promise<void> {
    if (context.inProcess) return;
    const address = context.clientAddress ?? 'unknown';
    const host = request.headers.get('host');
    const origin = request.headers.get('origin');
    // A browser names the page that sent the request: only this mock's own pages may.
    if (origin !== null && origin !== `http://${host}`)
      throw new ProblemError(
        'control_forbidden',
        `Control calls from another origin (${shorten(origin, 100)}) are refused.`,
      );
    const site = request.headers.get('sec-fetch-site');
    if (site !== null && site !== 'same-origin' && site !== 'none')
      throw new ProblemError('control_forbidden', `Control calls from a ${site} page are refused.`);
    if (!(await this.tokenAdmits(request, address))) {
      if (!context.loopback)
        throw new ProblemError(
          'control_forbidden',
          'Control endpoints answer only on loopback, or with the admin token the mock was started with ' +
            '(Authorization: Bearer).',
        );
      const name = hostName(host);
      if (name === null || !(isLoopbackName(name) || context.allowedHosts?.includes(name))) {
        throw new ProblemError(
          'control_forbidden',
          `The Host ${shorten(String(host), 100)} does not name this mock: use a loopback name, or start it with ` +
            `--allow-host.`,
        );
      }
    }
    const hasBody = request.body !== null || Number(request.headers.get('content-length') ?? 0) > 0;
    const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (hasBody && type !== 'application/json')
      throw new ProblemError('unsupported_media_type', 'Control bodies are application/json.');
  }

  /**
   * True when the admin token is presented. Without one set there is nothing to guess: a header
   * (a data key a client sends on every call, say) is not looked at. With one set, every try takes
   * a token of the address's bucket before it is compared, in one atomic step of the store, so
   * tries sent together cannot all pass a budget only some fit in; the right token gives it back.
   */
  private async tokenAdmits(request: Request, address: string): Promise<boolean> {
    const authorization = request.headers.get('authorization');
    if (authorization === null || this.adminToken === undefined) return false;
    const { wait } = await this.limiter.take('admin-token', address, guardLimits.burst, guardLimits.perSecond);
    if (wait)
      throw new ProblemError(
        'control_throttled',
        `Too many wrong admin tokens from this address: try again in ${wait} s.`,
        { headers: { 'retry-after': String(wait) } },
      );
    const token = bearerOf(authorization);
    if (token === undefined || !constantTimeEqual(token, this.adminToken)) {
      throw new ProblemError('control_forbidden', 'The admin token is wrong (Authorization: Bearer TOKEN).');
    }
    await this.limiter.giveBack('admin-token', address, guardLimits.burst, guardLimits.perSecond);
    return true;
  }
}
