/**
 * Requests fetch will not send: headers over a bound, a body declared too large (asked with
 * `Expect: 100-continue`, so it is never sent unless the server asks for it), headers that never
 * end. What the server answers before any operation is reached (DECISIONS.md#status-codes).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

export interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
}

const MAX_TEXT = 64 * 1024;

function collect(response: IncomingMessage): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      if (text.length < MAX_TEXT) text += chunk;
    });
    response.on('end', () =>
      resolve({ status: response.statusCode ?? 0, contentType: String(response.headers['content-type'] ?? ''), text }),
    );
    response.on('error', reject);
  });
}

/**
 * One request with the given headers; `declaredBody` bytes are declared with Expect: 100-continue
 * and sent (as spaces) only if the server says continue.
 */
export function rawRequest(
  baseUrl: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; declaredBody?: number; timeoutMs?: number },
): Promise<RawAnswer> {
  const url = new URL(path, baseUrl);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers: Record<string, string> = {
    ...options.headers,
    ...(options.declaredBody
      ? { 'content-length': String(options.declaredBody), 'content-type': 'application/json', expect: '100-continue' }
      : {}),
  };
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: options.method ?? 'GET',
      headers,
      agent: false,
      timeout: options.timeoutMs ?? 15_000,
    });
    req.on('response', (response) => {
      collect(response).then(resolve, reject);
    });
    req.on('continue', () => req.end(' '.repeat(options.declaredBody ?? 0)));
    req.on('timeout', () =>
      req.destroy(
        new Error(`no answer to ${options.method ?? 'GET'} ${url.pathname} in ${options.timeoutMs ?? 15_000} ms`),
      ),
    );
    req.on('error', reject);
    if (!options.declaredBody) req.end();
  });
}

/**
 * Sends `head` as it is (a request fetch and node:http refuse to write: no Host, CONNECT, an
 * Expect they would act on), `{prefix}` in it replaced by the base URL's path and `{host}` by its
 * host, and reads the answer until the server closes the connection or `waitMs` passes.
 */
export function rawExchange(baseUrl: string, head: string, waitMs = 10_000): Promise<RawAnswer | null> {
  const url = new URL(baseUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const text = head.replaceAll('{prefix}', url.pathname.replace(/\/$/, '')).replaceAll('{host}', url.host);
  return new Promise((resolve) => {
    const socket =
      url.protocol === 'https:'
        ? tlsConnect({ host: url.hostname, port, servername: url.hostname })
        : netConnect({ host: url.hostname, port });
    let raw = '';
    let ended = false;
    const done = () => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseRaw(raw));
    };
    const timer = setTimeout(done, waitMs);
    socket.setEncoding('utf8');
    socket.on(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => socket.write(text));
    socket.on('data', (chunk: string) => {
      if (raw.length < MAX_TEXT) raw += chunk;
    });
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', done);
  });
}

/** A raw answer's status, content type and body; null when it is no HTTP answer. */
function parseRaw(raw: string): RawAnswer | null {
  const head = /^HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(raw);
  if (!head) return null;
  const type = /^content-type:\s*(.*)$/im.exec(head[2]!)?.[1]?.trim() ?? '';
  return { status: Number(head[1]), contentType: type, text: head[3]! };
}

/**
 * Sends the start of a request and never the blank line that ends its headers, then waits for the
 * server to give up on it: its status line, content type and body, or null if it says nothing in
 * `waitMs` (the socket is closed either way).
 */
export function stalledHeaders(baseUrl: string, waitMs: number): Promise<RawAnswer | null> {
  return rawExchange(baseUrl, 'GET {prefix}/api/v1/firms HTTP/1.1\r\nHost: {host}\r\nX-Stalled: ', waitMs);
}
