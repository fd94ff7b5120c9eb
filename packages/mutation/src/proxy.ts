/**
 * The mutating proxy: a raw TCP pipe in front of a service that reads copies of both directions as
 * HTTP/1.1, and for the one active mutant rewrites the answers it matches. Every request byte
 * reaches the service as the client sent it (a stalled head, a head over the bound, no Host), and
 * every answer the mutant leaves alone goes back byte for byte; a rewritten one gets its
 * Content-Length again and its Content-Encoding redone.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync, deflateSync, inflateSync } from 'node:zlib';
import { matchOperation } from '@investor-graph/contract/router';
import { RequestReader, ResponseReader, headerOf, type RequestHead, type ResponseMessage } from './http-frames.ts';

/** A request as the mutant sees it: its operation (HEAD, OPTIONS and DELETE as the GET at their path). */
export interface Exchange {
  method: string;
  target: string;
  operation: string | null;
  requestHeaders: [string, string][];
}

/** An answer as the mutant sees it: the body without its Content-Encoding or chunking. */
export interface Answer {
  status: number;
  reason: string;
  headers: [string, string][];
  body: Buffer;
}

/** Gives the answer to send instead, or null to leave it as it came. */
export type Mutate = (answer: Answer, exchange: Exchange) => Answer | null;

export interface ProxyCounts {
  answers: number;
  /** Answers the mutant rewrote into other bytes. */
  changed: number;
  changedByOperation: Record<string, number>;
}

export interface MutatingProxy {
  server: Server;
  url: string;
  counts: ProxyCounts;
  /** Where requests go from now on (the service may start after the proxy, to know its public URL). */
  setUpstream(port: number, host?: string): void;
  close(): Promise<void>;
}

/** The operation a request is for: HEAD as its GET, any other method as the GET at its path. */
export function operationOf(method: string, target: string): string | null {
  const path = target.split('?')[0]!;
  return (
    (matchOperation(method === 'POST' ? 'POST' : 'GET', path) ?? matchOperation('GET', path))?.op.operationId ?? null
  );
}

const decoders: Record<string, (b: Buffer) => Buffer> = {
  gzip: gunzipSync,
  br: brotliDecompressSync,
  deflate: inflateSync,
};
const encoders: Record<string, (b: Buffer) => Buffer> = {
  gzip: gzipSync,
  br: brotliCompressSync,
  deflate: deflateSync,
};

function decoded(message: ResponseMessage): Buffer | null {
  const encoding = (headerOf(message.headers, 'content-encoding') ?? 'identity').toLowerCase();
  if (encoding === 'identity') return message.body;
  const decode = decoders[encoding];
  try {
    return decode ? decode(message.body) : null;
  } catch {
    return null;
  }
}

/** The bytes of an answer made again: status line, headers (framing recomputed), body encoded as before. */
function serialise(answer: Answer, headLength: number | null): Buffer {
  const encoding = (headerOf(answer.headers, 'content-encoding') ?? 'identity').toLowerCase();
  const body = encoders[encoding] ? encoders[encoding](answer.body) : answer.body;
  const length = headLength ?? body.length;
  const headers = answer.headers.filter(([n]) => !/^(content-length|transfer-encoding)$/i.test(n));
  const lines = [
    `HTTP/1.1 ${answer.status} ${answer.reason}`,
    ...headers.map(([n, v]) => `${n}: ${v}`),
    `Content-Length: ${length}`,
  ];
  return Buffer.concat([
    Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'),
    headLength === null ? body : Buffer.alloc(0),
  ]);
}

/** Starts the proxy on 127.0.0.1 (a free port unless given), in front of `upstreamPort` once set. */
export async function startMutatingProxy(options: {
  mutate?: Mutate | undefined;
  port?: number;
  upstreamPort?: number;
}): Promise<MutatingProxy> {
  const upstream = { host: '127.0.0.1', port: options.upstreamPort ?? 0 };
  const counts: ProxyCounts = { answers: 0, changed: 0, changedByOperation: {} };
  const sockets = new Set<Socket>();
  // The length of a rewritten GET's body by target, so its HEAD says the same (a HEAD has no body to rewrite).
  const getLengths = new Map<string, number>();

  const onMessage = (message: ResponseMessage, head: RequestHead | undefined): Buffer => {
    counts.answers++;
    if (!head || !options.mutate) return message.raw;
    const body = decoded(message);
    if (body === null) return message.raw;
    const exchange: Exchange = {
      method: head.method,
      target: head.target,
      operation: operationOf(head.method, head.target),
      requestHeaders: head.headers,
    };
    const answer: Answer = {
      status: message.status,
      reason: message.reason,
      headers: message.headers.map(([n, v]) => [n, v]),
      body,
    };
    const changed = options.mutate(answer, exchange);
    const rememberedLength = head.method === 'HEAD' ? getLengths.get(head.target) : undefined;
    if (!changed && rememberedLength === undefined) return message.raw;
    const out = changed ?? answer;
    const headLength =
      head.method === 'HEAD' ? (rememberedLength ?? Number(headerOf(out.headers, 'content-length') ?? 0)) : null;
    const bytes = serialise(out, headLength);
    if (head.method === 'GET' && changed) getLengths.set(head.target, bytes.length - bytes.indexOf('\r\n\r\n') - 4);
    if (bytes.equals(message.raw) || (changed && serialise(answer, headLength).equals(bytes))) return message.raw;
    counts.changed++;
    const op = exchange.operation ?? '(none)';
    counts.changedByOperation[op] = (counts.changedByOperation[op] ?? 0) + 1;
    return bytes;
  };

  const server = createServer((client) => {
    sockets.add(client);
    const service = connect(upstream.port, upstream.host);
    sockets.add(service);
    const queue: RequestHead[] = [];
    const requests = new RequestReader((head) => queue.push(head));
    const responses = new ResponseReader(
      (status) => status < 200 || status === 204 || status === 304 || queue[0]?.method === 'HEAD',
      (message) => {
        // A 1xx comes before the final answer to the same request.
        const head = message.status < 200 ? undefined : queue.shift();
        client.write(onMessage(message, requests.lost ? undefined : head));
      },
    );
    client.on('data', (chunk: Buffer) => {
      service.write(chunk);
      requests.push(chunk);
    });
    service.on('data', (chunk: Buffer) => {
      if (responses.lost) return void client.write(chunk);
      responses.push(chunk);
      if (responses.lost) client.write(responses.takePending());
    });
    client.on('end', () => service.end());
    service.on('end', () => {
      responses.end();
      const rest = responses.takePending();
      if (rest.length > 0) client.write(rest);
      client.end();
    });
    const close = () => {
      client.destroy();
      service.destroy();
      sockets.delete(client);
      sockets.delete(service);
    };
    client.on('error', close);
    service.on('error', close);
    client.on('close', close);
    service.on('close', () => {
      if (!client.writableEnded) client.end();
      sockets.delete(service);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    counts,
    setUpstream(p, host = '127.0.0.1') {
      upstream.port = p;
      upstream.host = host;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
