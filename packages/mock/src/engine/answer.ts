/** JSON answers: the one place the engine builds a Response with a JSON body, and how it writes a time. */

/** A time as answers write it: ISO 8601 in UTC, without milliseconds when there are none. */
export function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** A JSON answer whose body is already serialised. */
export function jsonText(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonText(status, JSON.stringify(body), headers);
}
