// Generated from packages/engine/src/control/openapi.yaml by `pnpm generate`. Do not edit.
export type paths = {
    "/__control": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page to watch the mock
         * @description An HTML page, also at `/__control/`: the simulated clock with buttons to move it and run due
         *     rebuilds, the keys with their usage, quota left and prepaid balance (by key_id, never a key),
         *     the incidents in force with a form to start one and buttons to end them, and the journal as
         *     it grows, newest first, filtered by status class and operation. Its script calls this API
         *     from the browser, same-origin, so it answers where the control API answers: a browser cannot
         *     send the admin token on a navigation, so the page is for a browser on the mock's loopback.
         *     Self-contained: its Content-Security-Policy allows its own inline script and style, by their
         *     hashes, and fetches to the mock's own origin, and nothing else.
         */
        get: operations["getControlPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__control/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description The control API's OpenAPI 3.1 document, as JSON.
         */
        get: operations["getControlDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__control/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Alive
         * @description 200 while the process answers at all: a liveness probe. It needs no key, no admin token and
         *     no loopback Host (a kubelet probes the pod's address from its node): it takes no body,
         *     changes nothing and tells nothing but that the mock is alive.
         */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__control/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Ready to take calls
         * @description 200 once the dataset is loaded and the state store answers (SQLite, Redis); 503 with the
         *     reason otherwise: a readiness probe, which takes a replica out of its Service while its
         *     store is away. Guarded as `healthz` is not: by nothing, for the same reasons. The reason
         *     names what is missing, never an address or a credential.
         */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__control/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description What the Node server counted, in Prometheus's text format (0.0.4): calls by operation,
         *     method, status class, plan and problem code, latency by operation, rows served and
         *     charged, refusals by plan, keys, the journal, incidents, the state store and the process.
         *     Guarded as every other control call; `--metrics-port` serves the same on a port of its own
         *     for a scrape from another host. The MSW handlers have none (404 `route_not_found`).
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__control/state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The mock's state
         * @description The clock, the data's as-of, the rebuilds still pending, the changes made, the state store,
         *     and every key with its usage (`keys` is null while a Redis state store does not answer).
         */
        get: operations["getState"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__control/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a key of any plan
         * @description Makes a key of any plan. The key's text is in this answer only: no other answer, page,
         *     journal entry or log line holds it. `created_at` (UTC, no later than the clock) makes it in
         *     the past, e.g. a trial already past its 7 days, without moving the clock every key shares.
         */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__control/keys/{key_id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke a key
         * @description Revokes a key; its calls are answered 401 `revoked_key` from then on. No body.
         */
        post: operations["revokeKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__control/keys/{key_id}/top-up": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add prepaid rows to a pay-as-you-go key
         * @description Adds rows to a pay-as-you-go key's prepaid balance; any other plan's key is refused (400).
         */
        post: operations["topUpKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__control/keys/{key_id}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set a key's counted calls
         * @description Sets the calls counted in the key's period, to reach "999 of 1,000" without 999 calls.
         */
        put: operations["setKeyUsage"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__control/clock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The simulated clock
         * @description The simulated time, and whether it stands still.
         */
        get: operations["getClock"];
        /**
         * Set the simulated clock
         * @description Sets the simulated time (forward only) and freezes or releases it; either member may be left
         *     out. The rebuilds due by the new time run.
         */
        put: operations["setClock"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__control/clock/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move the simulated clock forward
         * @description Jumps forward by `seconds` or an ISO 8601 `duration` (at most ten years): trials expire,
         *     months roll over, due rebuilds run.
         */
        post: operations["advanceClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__control/rebuild": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run the rebuilds due now
         * @description Runs the rebuilds due at the simulated time now and lists the changes they made. No body.
         */
        post: operations["rebuild"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__control/journal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of the request journal
         * @description The data API's calls, oldest first, a page at a time (give a page's `next_cursor` as
         *     `cursor` for the next), those matching the filter only. Entries name a key by its id and
         *     plan, never its text.
         */
        get: operations["getJournal"];
        put?: never;
        post?: never;
        /**
         * Forget every journaled call
         * @description Empties the journal, between tests; cursors from before name nothing after it.
         */
        delete: operations["clearJournal"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__control/journal/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count the calls matching a pattern
         * @description Counts the calls matching `pattern` against `count` (a number, or `{min?, max?}`; at least
         *     one when left out). Answered 200 whatever the verdict: when too few matched, the nearest
         *     calls and what differed in each; when too many, the first of them; `message` says it all.
         */
        post: operations["verifyJournal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__control/incidents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The incidents in force
         * @description Every incident still in force, oldest first.
         */
        get: operations["listIncidents"];
        put?: never;
        /**
         * Start an incident
         * @description From now on the calls of the data API that `match` names (every call when left out) are
         *     answered as `kind` says, until it ends: after `calls` matching calls, after `duration` of
         *     wall-clock time, at `until` on the simulated clock, whichever comes first (none given: until
         *     it is ended or cleared). Calls an incident answers instead of the service (outage,
         *     bad_gateway, gateway_timeout, reset, rate_limited) are neither counted nor charged; latency
         *     and slow_body calls are served, counted and charged as usual. The journal names the incident
         *     that changed a call (`incident`).
         */
        post: operations["createIncident"];
        /**
         * End every incident
         * @description Ends every incident in force, between tests.
         */
        delete: operations["clearIncidents"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__control/incidents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * End one incident
         * @description Ends the incident now and answers it as it ended.
         */
        delete: operations["endIncident"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        /** @description RFC 9457 problem details with a stable machine code, as the data API answers them. */
        Problem: {
            /** Format: uri-reference */
            type: string;
            title: string;
            status: number;
            detail: string;
            /** Format: uri-reference */
            instance?: string;
            code: string;
            request_id: string;
            /** @description Every wrong member of a body (pointer) or query (parameter) at once. */
            errors?: components["schemas"]["InputError"][];
            /** @description Always empty here; the control plane has nothing to buy. */
            actions?: Record<string, never>[];
        };
        InputError: {
            /** @description A JSON pointer into the body. */
            pointer?: string;
            /** @description A query parameter's name. */
            parameter?: string;
            detail: string;
        };
        Probe: {
            /** @enum {string} */
            status: "alive" | "ready" | "not_ready";
            /** @description Why the mock is not ready. */
            reason?: string;
        };
        OpenApiDocument: {
            openapi: string;
            info: Record<string, never>;
            paths: Record<string, never>;
        };
        /** @enum {string} */
        PlanId: "trial" | "team" | "business" | "enterprise" | "payg";
        /** @enum {string} */
        KeyStatus: "active" | "expired" | "exhausted" | "revoked";
        /** @description A key as the control plane shows it; never its text, only its prefix and last four characters. */
        KeySummary: {
            key_id: string;
            plan: components["schemas"]["PlanId"];
            prefix: string;
            last4: string;
            status: components["schemas"]["KeyStatus"];
            /** Format: date-time */
            created_at: string | null;
            /** Format: date-time */
            expires_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
        };
        /** @description A key as revoked. */
        RevokedKey: components["schemas"]["KeySummary"];
        KeyWithBalance: components["schemas"]["KeySummary"] & {
            /** @description Prepaid rows left (pay-as-you-go keys; null for the others). */
            balance_rows: number | null;
        };
        IssuedKey: components["schemas"]["KeySummary"] & {
            /** @description The key's text, shown in this answer only. */
            key: string;
            balance_rows: number | null;
        };
        Usage: {
            /** Format: date-time */
            period_start: string | null;
            /** Format: date-time */
            period_end: string | null;
            calls_used: number;
            calls_limit: number | null;
            calls_remaining: number | null;
            rows_charged: number;
            balance_rows: number | null;
        };
        KeyWithUsage: components["schemas"]["KeySummary"] & {
            usage: components["schemas"]["Usage"];
        };
        CreateKeyRequest: {
            plan: components["schemas"]["PlanId"];
            /** @description The key's text, when the test brings its own (8 to 200 printable ASCII characters). */
            key?: string;
            /** @description Prepaid rows of a pay-as-you-go key. */
            prepaid_rows?: number;
            /**
             * Format: date-time
             * @description When the key was made (UTC, no later than the clock); the clock's time by default.
             */
            created_at?: string;
        };
        TopUpRequest: {
            rows: number;
        };
        UsageRequest: {
            calls_used: number;
        };
        ClockState: {
            /** Format: date-time */
            now: string;
            frozen: boolean;
        };
        ClockChange: {
            /** Format: date-time */
            now: string;
            frozen: boolean;
            /** @description Changes the rebuilds due by the new time made. */
            applied: number;
        };
        SetClockRequest: {
            /**
             * Format: date-time
             * @description The new simulated time, no earlier than the clock; the time now when left out.
             */
            now?: string;
            /** @description Whether the clock stands still from then on; as it was when left out. */
            frozen?: boolean;
        };
        /** @description How far to move, as seconds or an ISO 8601 duration (PT1H, P1D, P31D), at most ten years. */
        AdvanceClockRequest: {
            seconds: number;
        } | {
            duration: string;
        };
        StoreInfo: {
            /** @enum {string} */
            store: "memory" | "sqlite" | "redis";
            /** @description The database file or the Redis server (its password blanked); null in memory. */
            location: string | null;
            reachable: boolean;
        };
        StateKey: components["schemas"]["KeySummary"] & {
            usage: components["schemas"]["Usage"];
        };
        State: {
            clock: components["schemas"]["ClockState"];
            /** Format: date-time */
            as_of: string;
            pending_rebuilds: number;
            changes: number;
            state: components["schemas"]["StoreInfo"];
            keys: components["schemas"]["StateKey"][] | null;
        };
        Change: {
            sequence: number;
            /** @enum {string} */
            kind: "create" | "update" | "unpublish";
            /** @enum {string} */
            resource: "firm" | "company" | "round" | "investment" | "fund" | "filing" | "offering" | "adv-fund" | "list";
            /** @description The record's key (a slug or an id), not an API key. */
            key: string;
            /** Format: date-time */
            changed_at: string;
        };
        Rebuild: {
            /** Format: date-time */
            as_of: string;
            applied: components["schemas"]["Change"][];
            pending_rebuilds: number;
        };
        /** @description One call of the data API, as the journal keeps it; its path and query blanked as the log blanks them. */
        JournalEntry: {
            /** @description Its place in the journal, counted from its start (a page's cursor is one). */
            seq: number;
            /**
             * Format: date-time
             * @description When it came, by the wall clock.
             */
            at: string;
            /**
             * Format: date-time
             * @description The simulated clock when it came.
             */
            service_time: string;
            request_id: string;
            method: string;
            /** @description The path, keys blanked as the log blanks them. */
            path: string;
            /** @description The query's parameters, decoded, keys blanked (a cursor shortened) as the log blanks them. */
            query: {
                [key: string]: string;
            };
            /** @description The contract's operationId, or null for a path it has no operation at. */
            operation: string | null;
            /** @description The key's id (never the key), or null when no valid key came. */
            key_id: string | null;
            plan: components["schemas"]["PlanId"] | null;
            /** @description 0: no answer, the connection was cut (an incident's reset). */
            status: number;
            /** @description The problem's code when the answer was one. */
            problem: string | null;
            rows_served: number;
            /** @description 1 when the call counted against the quota, else 0. */
            calls_counted: number;
            rows_charged: number;
            duration_ms: number;
            /** @description The id of the incident that changed the call, if one did. */
            incident: string | null;
        };
        JournalPage: {
            entries: components["schemas"]["JournalEntry"][];
            /** @description Give it as cursor for the entries after these; null at the end of the journal as it stands. */
            next_cursor: string | null;
            capacity: number;
            dropped: number;
        };
        JournalCleared: {
            cleared: number;
            capacity: number;
        };
        /** @description What a call must have been; every member given must hold. */
        JournalPattern: {
            operation?: string;
            method?: string;
            /** @description `*` matches any run of characters. */
            path?: string;
            /** @description A status (402), or a class of them ("4xx"). */
            status?: number | string;
            key_id?: string;
            plan?: string;
            query?: {
                [key: string]: string;
            };
        };
        /** @description Exactly n calls, or a range (either bound left open). */
        CallCount: number | {
            min?: number;
            max?: number;
        };
        VerifyRequest: {
            pattern?: components["schemas"]["JournalPattern"];
            count?: components["schemas"]["CallCount"];
        };
        Difference: {
            field: string;
            expected: string;
            actual: string;
        };
        NearMiss: {
            entry: components["schemas"]["JournalEntry"];
            differences: components["schemas"]["Difference"][];
        };
        Verification: {
            matched: number;
            expected: {
                min: number;
                max: number | null;
            };
            ok: boolean;
            near_misses: components["schemas"]["NearMiss"][];
            matching: components["schemas"]["JournalEntry"][];
            /** @description The verdict as a test runner should show it; empty when it held. */
            message: string;
        };
        /**
         * @description outage: 503 service_unavailable with Retry-After; bad_gateway: 502; gateway_timeout: 504;
         *     latency: answered normally after latency_ms (± jitter_ms); reset: the connection cut with no
         *     answer (under MSW a network error); slow_body: answered normally, the body trickled at
         *     bytes_per_second; rate_limited: 429 rate_limited with Retry-After (a 429 storm).
         * @enum {string}
         */
        IncidentKind: "outage" | "bad_gateway" | "gateway_timeout" | "latency" | "reset" | "slow_body" | "rate_limited";
        /** @description Which calls of the data API it changes; every member given must hold, every call when empty. */
        IncidentMatch: {
            /** @description The contract's operationId. */
            operation?: string;
            /** @description The path; `*` matches any run of characters, as the journal's filter. */
            path?: string;
            method?: string;
            key_id?: string;
        };
        CreateIncidentRequest: {
            kind: components["schemas"]["IncidentKind"];
            match?: components["schemas"]["IncidentMatch"];
            /** @description The next N matching calls. */
            calls?: number;
            /** @description How long by the wall clock (ISO 8601 duration, e.g. PT30S). */
            duration?: string;
            /**
             * Format: date-time
             * @description Until this time of the mock's simulated clock.
             */
            until?: string;
            /** @description Seconds, for outage (5 by default) and rate_limited (1 by default). */
            retry_after?: number;
            /** @description Required for latency. */
            latency_ms?: number;
            /** @description Latency's spread either way (0 by default; no JSON Schema default, so the type keeps it optional). */
            jitter_ms?: number;
            /** @description For slow_body (1024 by default). */
            bytes_per_second?: number;
        };
        Incident: {
            id: string;
            kind: components["schemas"]["IncidentKind"];
            match: components["schemas"]["IncidentMatch"];
            /** @description Matching calls it still changes; null when not bounded by calls. */
            calls_left: number | null;
            /**
             * Format: date-time
             * @description When it ends by the wall clock; null when not bounded by a duration.
             */
            ends_at: string | null;
            /**
             * Format: date-time
             * @description When it ends by the simulated clock; null when not bounded so.
             */
            until: string | null;
            retry_after?: number;
            latency_ms?: number;
            jitter_ms?: number;
            bytes_per_second?: number;
            /** Format: date-time */
            created_at: string;
            /** @description The calls it has changed. */
            hits: number;
        };
        IncidentList: {
            incidents: components["schemas"]["Incident"][];
        };
        IncidentsCleared: {
            cleared: number;
        };
    };
    responses: {
        /**
         * @description A caller the control plane does not answer (`control_forbidden`): not on loopback without the
         *     admin token, a Host that does not name the mock, a foreign Origin, a wrong admin token.
         */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Too many wrong admin tokens from this address (`control_throttled`); nothing to buy, so no action. */
        Throttled: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A body that is not what the call takes (`invalid_body`), each wrong member named in `errors`. */
        InvalidBody: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description No key has that key_id (`not_found`), or the path names no control endpoint at all, as when a
         *     key's text is given where its id belongs (`route_not_found`, the text blanked).
         */
        KeyNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A body over 4096 bytes (`payload_too_large`). */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A body that is not application/json (`unsupported_media_type`), which a page cannot send cross-site unpreflighted. */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The state store the mocks share did not answer in time (`state_unavailable`) or stayed locked
         *     (`state_busy`): nothing was changed.
         */
        StateUnavailable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /** @description The key's id (as its answer and the state show it), never the key. */
        KeyId: string;
    };
    requestBodies: never;
    headers: {
        /** @description Seconds to wait before trying again. */
        RetryAfter: string;
    };
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    getControlPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    /** @description `default-src 'none'`, the page's script and style by hash, `connect-src 'self'`, `frame-ancestors 'none'`. */
                    "Content-Security-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            403: components["responses"]["Forbidden"];
            429: components["responses"]["Throttled"];
        };
    };
    getControlDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            403: components["responses"]["Forbidden"];
            429: components["responses"]["Throttled"];
        };
    };
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Probe"];
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Probe"];
                };
            };
            /** @description Not ready, and why. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Probe"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["KeyNotFound"];
            429: components["responses"]["Throttled"];
        };
    };
    getState: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["State"];
                };
            };
            403: components["responses"]["Forbidden"];
            429: components["responses"]["Throttled"];
        };
    };
    createKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateKeyRequest"];
            };
        };
        responses: {
            /** @description The key, with its text shown this once. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedKey"];
                };
            };
            400: components["responses"]["InvalidBody"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
            503: components["responses"]["StateUnavailable"];
        };
    };
    revokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key's id (as its answer and the state show it), never the key. */
                key_id: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key as revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevokedKey"];
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["KeyNotFound"];
            429: components["responses"]["Throttled"];
            503: components["responses"]["StateUnavailable"];
        };
    };
    topUpKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key's id (as its answer and the state show it), never the key. */
                key_id: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TopUpRequest"];
            };
        };
        responses: {
            /** @description The key with its new balance. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyWithBalance"];
                };
            };
            400: components["responses"]["InvalidBody"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["KeyNotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
            503: components["responses"]["StateUnavailable"];
        };
    };
    setKeyUsage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key's id (as its answer and the state show it), never the key. */
                key_id: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UsageRequest"];
            };
        };
        responses: {
            /** @description The key with its usage. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyWithUsage"];
                };
            };
            400: components["responses"]["InvalidBody"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["KeyNotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
            503: components["responses"]["StateUnavailable"];
        };
    };
    getClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The clock. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClockState"];
                };
            };
            403: components["responses"]["Forbidden"];
            429: components["responses"]["Throttled"];
        };
    };
    setClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetClockRequest"];
            };
        };
        responses: {
            /** @description The clock as set, and how many changes the rebuilds made. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClockChange"];
                };
            };
            400: components["responses"]["InvalidBody"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
            503: components["responses"]["StateUnavailable"];
        };
    };
    advanceClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdvanceClockRequest"];
            };
        };
        responses: {
            /** @description The clock as moved, and how many changes the rebuilds made. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClockChange"];
                };
            };
            400: components["responses"]["InvalidBody"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
            503: components["responses"]["StateUnavailable"];
        };
    };
    rebuild: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The changes made. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rebuild"];
                };
            };
            403: components["responses"]["Forbidden"];
            429: components["responses"]["Throttled"];
        };
    };
    getJournal: {
        parameters: {
            query?: {
                /** @description The contract's operationId, e.g. listFirms. */
                operation?: string;
                /** @description The HTTP method, in any case. */
                method?: string;
                /** @description The path as the journal shows it; `*` matches any run of characters. */
                path?: string;
                /** @description A status (402), or a class of them (4xx). */
                status?: string;
                /** @description The key's id, never the key. */
                key_id?: string;
                /** @description The key's plan. */
                plan?: string;
                /** @description Calls from this wall-clock time on. */
                since?: string;
                /** @description Entries per page. */
                limit?: number;
                /** @description A page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the journal. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JournalPage"];
                };
            };
            /** @description A wrong parameter (`invalid_parameter`), each named in `errors`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            403: components["responses"]["Forbidden"];
            429: components["responses"]["Throttled"];
        };
    };
    clearJournal: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How many calls were forgotten. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JournalCleared"];
                };
            };
            403: components["responses"]["Forbidden"];
            429: components["responses"]["Throttled"];
        };
    };
    verifyJournal: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VerifyRequest"];
            };
        };
        responses: {
            /** @description The verdict. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Verification"];
                };
            };
            400: components["responses"]["InvalidBody"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    listIncidents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The incidents. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IncidentList"];
                };
            };
            403: components["responses"]["Forbidden"];
            429: components["responses"]["Throttled"];
        };
    };
    createIncident: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateIncidentRequest"];
            };
        };
        responses: {
            /** @description The incident, in force. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Incident"];
                };
            };
            400: components["responses"]["InvalidBody"];
            403: components["responses"]["Forbidden"];
            /** @description The mock holds 1,000 incidents in force at most (`too_many_incidents`); end some first. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    clearIncidents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How many incidents were ended. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IncidentsCleared"];
                };
            };
            403: components["responses"]["Forbidden"];
            429: components["responses"]["Throttled"];
        };
    };
    endIncident: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The incident's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The incident as it ended. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Incident"];
                };
            };
            403: components["responses"]["Forbidden"];
            /** @description No incident in force has that id (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
}
