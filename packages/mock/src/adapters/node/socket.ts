/** What only the socket knows: whether a client is on this machine, and the context the engine is given of it. */
import type { IncomingMessage } from 'node:http';
import type { RequestContext } from '@investor-graph/engine/adapter';

/** Whether an address is this machine's own (IPv4, IPv6, or IPv4 mapped into IPv6). */
export function isLoopback(address: string | undefined): boolean {
  return !!address && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));
}

/** What only the socket knows, for the engine: where the request came from, and that this server compresses. */
export function socketContext(options: {
  allowedHosts?: readonly string[];
}): (incoming: IncomingMessage) => RequestContext {
  const allowedHosts = options.allowedHosts ? { allowedHosts: options.allowedHosts } : {};
  return (incoming) => {
    const address = incoming.socket.remoteAddress;
    return { clientAddress: address ?? 'unknown', loopback: isLoopback(address), compresses: true, ...allowedHosts };
  };
}
