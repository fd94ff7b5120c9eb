// Generated from contracts/openapi.yaml by `pnpm generate`. Do not edit.
export type paths = {
    "/api/v1/keys/trial": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get a free trial key
         * @description Issues a trial key for an e-mail address with a single unauthenticated call: no browser, no card.
         *     The key is shown once, in this response, and never again. One live trial per e-mail address.
         */
        post: operations["createTrialKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/firms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List firms
         * @description Investment firms in ascending order of slug, a page at a time.
         */
        get: operations["listFirms"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/firms/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One firm
         * @description One investment firm by slug.
         */
        get: operations["getFirm"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/firms/{slug}/portfolio": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A firm's investor-to-company edges
         * @description The firm's investments, each with its evidence tier and cited sources, in ascending order of id.
         */
        get: operations["listFirmPortfolio"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/firms/{slug}/filings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A firm's SEC Form D fund filings
         * @description Form D filings of the firm's funds, in ascending order of accession number.
         */
        get: operations["listFirmFilings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/firms/{slug}/funds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A firm's ADV private funds
         * @description Private funds the firm reports on Form ADV, in ascending order of private fund id.
         */
        get: operations["listFirmFunds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List companies
         * @description Companies in ascending order of slug, a page at a time.
         */
        get: operations["listCompanies"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One company
         * @description One company by slug.
         */
        get: operations["getCompany"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies/{slug}/rounds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A company's funding rounds
         * @description The company's rounds in ascending order of id. On a trial key, rounds inside the round lag are left out.
         */
        get: operations["listCompanyRounds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies/{slug}/investors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A company's investors
         * @description Investor edges into the company, with evidence, in ascending order of id.
         */
        get: operations["listCompanyInvestors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/companies/{slug}/offerings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A company's SEC Form D offerings
         * @description The company's Form D offerings in ascending order of accession number.
         */
        get: operations["listCompanyOfferings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/rounds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List rounds
         * @description Funding rounds in ascending order of id. On a trial key, rounds announced within the round lag before as_of are left out.
         */
        get: operations["listRounds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/investments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List investments
         * @description Investor-to-company edges with evidence, in ascending order of id.
         */
        get: operations["listInvestments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/funds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List funds
         * @description Funds with their reported returns, in ascending order of id.
         */
        get: operations["listFunds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/funds/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One fund
         * @description One fund by its opaque id.
         */
        get: operations["getFund"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/filings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List filings
         * @description SEC Form D fund filings in ascending order of accession number.
         */
        get: operations["listFilings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offerings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List offerings
         * @description SEC Form D company offerings in ascending order of accession number.
         */
        get: operations["listOfferings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/adv-funds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List adv-funds
         * @description Form ADV private funds in ascending order of private fund id.
         */
        get: operations["listAdvFunds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lists": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List lists
         * @description Curated lists, without their members, in ascending order of slug.
         */
        get: operations["listLists"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lists/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One list with its members
         * @description One curated list with all its members.
         */
        get: operations["getList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Changes since a timestamp
         * @description Every create, update and unpublish at or after `since`, in order of sequence. Paid plans and prepaid rows only: a trial key gets a 402.
         */
        get: operations["listChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Nightly full-dump manifest
         * @description The dump dates, newest first, each with its files. Business and Enterprise only: other plans get a 402.
         */
        get: operations["getExportManifest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/exports/{date}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download one dump file
         * @description One gzip JSONL file of a nightly dump: one row a line, rows as the list endpoints serve them. Business and Enterprise only.
         */
        get: operations["getExportFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/statistics/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Rollup by name
         * @description One of four rollups computed over the data the key may see. An unknown name is a 404 that lists the allowed names.
         */
        get: operations["getStatistic"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Plan, usage, balance and keys
         * @description The key's plan, usage, prepaid balance and keys (each by prefix and last four characters). Free: neither charged nor counted.
         */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description The machine-readable description of the API with the full parameter reference, as JSON.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        /**
         * @description Lower-case words joined by single hyphens.
         * @example harbor-lane-capital
         */
        Slug: string;
        /**
         * @description Opaque fund identifier: compare it, never parse it.
         * @example fnd_7c1q9w3e5r8t
         */
        FundId: string;
        /**
         * @description SEC accession number as the SEC writes it (filer id, year, sequence).
         * @example 0001478231-24-000003
         */
        AccessionNumber: string;
        /** @description Opaque, tamper-evident cursor bound to the filters it was issued for. */
        Cursor: string;
        /** @description Cursor for the next page; null on the last page. */
        NextCursor: string | null;
        /**
         * Format: date-time
         * @description The data's as-of time: when the data served was last rebuilt.
         */
        AsOf: string;
        /**
         * @description The plan of a key.
         * @enum {string}
         */
        PlanId: "trial" | "team" | "business" | "enterprise" | "payg";
        /** @description The caller's plan and the limits it sets. */
        Plan: {
            id: components["schemas"]["PlanId"];
            name: string;
            /** Format: int32 */
            rows_per_page: number;
            rate_per_second: number;
            /** Format: int32 */
            round_lag_days: number;
            changes_feed: boolean;
            exports: boolean;
        };
        /** @description The caller's usage, counting the call it comes with. */
        Usage: {
            /** Format: date-time */
            period_start: string | null;
            /** Format: date-time */
            period_end: string | null;
            /** Format: int64 */
            calls_used: number;
            /** Format: int64 */
            calls_limit: number | null;
            /** Format: int64 */
            calls_remaining: number | null;
            /**
             * Format: int64
             * @description Prepaid rows this call cost (pay as you go; 0 otherwise).
             */
            rows_charged: number;
            /**
             * Format: int64
             * @description Prepaid rows left after this call (pay as you go; null otherwise).
             */
            balance_rows: number | null;
        };
        /** @description An investment firm. */
        Firm: {
            slug: components["schemas"]["Slug"];
            name: string;
            /** @enum {string} */
            kind: "venture_capital" | "private_equity" | "growth_equity" | "corporate_venture" | "accelerator" | "family_office" | "sovereign_wealth" | "hedge_fund";
            hq_city: string | null;
            /** @description ISO 3166-1 alpha-2 country code. */
            hq_country: string | null;
            /** Format: uri */
            website: string | null;
            /** Format: int32 */
            founded_year: number | null;
            /**
             * Format: int64
             * @description Regulatory assets under management in US dollars, when public.
             */
            aum_usd: number | null;
            stages: ("pre_seed" | "seed" | "series_a" | "series_b" | "series_c" | "series_d" | "series_e" | "growth" | "bridge")[];
            sectors: string[];
            /** @description SEC Central Index Key, zero-padded. */
            sec_cik: string | null;
            /** @description FINRA/IAPD CRD number of the adviser. */
            crd_number: string | null;
            /** Format: int32 */
            portfolio_count: number;
            /**
             * Format: uri
             * @description Link back to the record's page on the service's website, which has full provenance.
             */
            service_url: string;
            /**
             * Format: date-time
             * @description When the record's content last actually changed (a rebuild that re-hashes it to the same content leaves it alone).
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When the record was first seen.
             */
            first_seen_at: string;
        };
        LastRound: {
            id: string;
            /** @enum {string} */
            stage: "pre_seed" | "seed" | "series_a" | "series_b" | "series_c" | "series_d" | "series_e" | "growth" | "bridge";
            /** Format: date */
            announced_on: string;
            /**
             * Format: int64
             * @description Amount in US dollars, when public.
             */
            amount_usd: number | null;
        } | null;
        /** @description A company. */
        Company: {
            slug: components["schemas"]["Slug"];
            name: string;
            /** Format: uri */
            website: string | null;
            hq_city: string | null;
            /** @description ISO 3166-1 alpha-2 country code. */
            hq_country: string | null;
            /** Format: int32 */
            founded_year: number | null;
            sector: string;
            /** @enum {string} */
            status: "active" | "acquired" | "public" | "closed";
            /** @description Identifier in the national company registry, prefixed by country (and state where the registry is a state one). */
            registry_id: string | null;
            /**
             * Format: int64
             * @description Sum of the public round amounts in US dollars.
             */
            total_raised_usd: number | null;
            last_round: components["schemas"]["LastRound"];
            /**
             * Format: uri
             * @description Link back to the record's page on the service's website, which has full provenance.
             */
            service_url: string;
            /**
             * Format: date-time
             * @description When the record's content last actually changed (a rebuild that re-hashes it to the same content leaves it alone).
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When the record was first seen.
             */
            first_seen_at: string;
        };
        FirmRef: {
            slug: components["schemas"]["Slug"];
            name: string;
        };
        /** @description A funding round. */
        Round: {
            id: string;
            company_slug: components["schemas"]["Slug"];
            company_name: string;
            /** @enum {string} */
            stage: "pre_seed" | "seed" | "series_a" | "series_b" | "series_c" | "series_d" | "series_e" | "growth" | "bridge";
            /** Format: date */
            announced_on: string;
            /** @description Amount in the round currency, when public. */
            amount: number | null;
            /** @description ISO 4217 currency code. */
            currency: string;
            /**
             * Format: int64
             * @description Amount in US dollars, when public.
             */
            amount_usd: number | null;
            /**
             * Format: int64
             * @description Post-money valuation in US dollars, only when public.
             */
            post_money_valuation_usd: number | null;
            lead_firms: components["schemas"]["FirmRef"][];
            /** @enum {string} */
            source_kind: "sec_form_d" | "company_registry" | "press" | "company_website" | "firm_website";
            /** @description Accession number of the Form D the round comes from, when it does. */
            form_d_accession_number: components["schemas"]["AccessionNumber"] | null;
            /**
             * Format: uri
             * @description Link back to the record's page on the service's website, which has full provenance.
             */
            service_url: string;
            /**
             * Format: date-time
             * @description When the record's content last actually changed (a rebuild that re-hashes it to the same content leaves it alone).
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When the record was first seen.
             */
            first_seen_at: string;
        };
        EvidenceSource: {
            /** @enum {string} */
            kind: "sec_form_d" | "sec_form_adv" | "sec_13f" | "sec_s1" | "company_registry" | "lp_report" | "firm_website" | "company_website" | "press";
            /** Format: uri */
            url: string;
            /** Format: date-time */
            observed_at: string;
        };
        /** @description An investor-to-company edge with its evidence. */
        Investment: {
            id: string;
            firm_slug: components["schemas"]["Slug"];
            firm_name: string;
            company_slug: components["schemas"]["Slug"];
            company_name: string;
            round_id: string | null;
            /** @enum {string} */
            role: "lead" | "participant";
            /**
             * @description filing: a regulatory filing names the edge; primary: the firm or the company says so; corroborated: two or more independent secondary sources; reported: one secondary source.
             * @enum {string}
             */
            evidence_tier: "filing" | "primary" | "corroborated" | "reported";
            sources: components["schemas"]["EvidenceSource"][];
            /**
             * Format: uri
             * @description Link back to the record's page on the service's website, which has full provenance.
             */
            service_url: string;
            /**
             * Format: date-time
             * @description When the record's content last actually changed (a rebuild that re-hashes it to the same content leaves it alone).
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When the record was first seen.
             */
            first_seen_at: string;
        };
        FundReturns: {
            /** @description Net internal rate of return as a fraction (0.214 is 21.4%). */
            irr: number | null;
            tvpi: number | null;
            dpi: number | null;
            /** Format: date */
            as_of: string;
            /** Format: uri */
            source_url: string;
        } | null;
        /** @description A fund with its reported returns. */
        Fund: {
            id: components["schemas"]["FundId"];
            firm_slug: components["schemas"]["Slug"];
            name: string;
            /** Format: int32 */
            vintage_year: number;
            /**
             * Format: int64
             * @description Committed capital in US dollars.
             */
            size_usd: number | null;
            currency: string;
            /** @enum {string} */
            strategy: "venture_capital" | "growth_equity" | "buyout" | "private_credit" | "secondaries" | "fund_of_funds";
            returns: components["schemas"]["FundReturns"];
            /**
             * Format: uri
             * @description Link back to the record's page on the service's website, which has full provenance.
             */
            service_url: string;
            /**
             * Format: date-time
             * @description When the record's content last actually changed (a rebuild that re-hashes it to the same content leaves it alone).
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When the record was first seen.
             */
            first_seen_at: string;
        };
        /** @description An SEC Form D filing of a fund. */
        Filing: {
            accession_number: components["schemas"]["AccessionNumber"];
            firm_slug: components["schemas"]["Slug"];
            fund_name: string;
            /** Format: date */
            filed_on: string;
            /**
             * Format: int64
             * @description Total offering amount; null when the filing says indefinite.
             */
            total_offering_amount_usd: number | null;
            /**
             * Format: int64
             * @description Total amount sold so far.
             */
            total_amount_sold_usd: number | null;
            /** @description Exemptions and exclusions claimed, as Form D item 6 writes them (06b, 06c, 3C, 3C.1, 3C.7, ...). */
            exemptions: string[];
            is_amendment: boolean;
            /** Format: uri */
            sec_url: string;
            /**
             * Format: uri
             * @description Link back to the record's page on the service's website, which has full provenance.
             */
            service_url: string;
            /**
             * Format: date-time
             * @description When the record's content last actually changed (a rebuild that re-hashes it to the same content leaves it alone).
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When the record was first seen.
             */
            first_seen_at: string;
        };
        /** @description An SEC Form D offering of a company. */
        Offering: {
            accession_number: components["schemas"]["AccessionNumber"];
            company_slug: components["schemas"]["Slug"];
            /** Format: date */
            filed_on: string;
            /**
             * Format: int64
             * @description Total offering amount; null when indefinite.
             */
            total_offering_amount_usd: number | null;
            /**
             * Format: int64
             * @description Total amount sold so far.
             */
            total_amount_sold_usd: number | null;
            /** @description Form D item 4 industry group. */
            industry_group: string;
            exemptions: string[];
            is_amendment: boolean;
            /** Format: uri */
            sec_url: string;
            /**
             * Format: uri
             * @description Link back to the record's page on the service's website, which has full provenance.
             */
            service_url: string;
            /**
             * Format: date-time
             * @description When the record's content last actually changed (a rebuild that re-hashes it to the same content leaves it alone).
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When the record was first seen.
             */
            first_seen_at: string;
        };
        /** @description A private fund reported on Form ADV Schedule D 7.B.1. */
        AdvFund: {
            /** @description The private fund identification number the SEC assigns. */
            private_fund_id: string;
            firm_slug: components["schemas"]["Slug"];
            name: string;
            /** @enum {string} */
            fund_type: "hedge_fund" | "liquidity_fund" | "private_equity_fund" | "real_estate_fund" | "securitized_asset_fund" | "venture_capital_fund" | "other_private_fund";
            /**
             * Format: int64
             * @description Gross asset value in US dollars.
             */
            gross_asset_value_usd: number | null;
            /** Format: date */
            reported_on: string;
            /** Format: uri */
            sec_url: string;
            /**
             * Format: uri
             * @description Link back to the record's page on the service's website, which has full provenance.
             */
            service_url: string;
            /**
             * Format: date-time
             * @description When the record's content last actually changed (a rebuild that re-hashes it to the same content leaves it alone).
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When the record was first seen.
             */
            first_seen_at: string;
        };
        /** @description A curated list, without its members. */
        ListSummary: {
            slug: components["schemas"]["Slug"];
            name: string;
            description: string;
            /** Format: int32 */
            member_count: number;
            /**
             * Format: uri
             * @description Link back to the record's page on the service's website, which has full provenance.
             */
            service_url: string;
            /**
             * Format: date-time
             * @description When the record's content last actually changed (a rebuild that re-hashes it to the same content leaves it alone).
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When the record was first seen.
             */
            first_seen_at: string;
        };
        ListMember: {
            /** @enum {string} */
            kind: "firm" | "company";
            slug: components["schemas"]["Slug"];
            name: string;
        };
        /** @description A curated list with its members. */
        List: {
            slug: components["schemas"]["Slug"];
            name: string;
            description: string;
            /** Format: int32 */
            member_count: number;
            members: components["schemas"]["ListMember"][];
            /**
             * Format: uri
             * @description Link back to the record's page on the service's website, which has full provenance.
             */
            service_url: string;
            /**
             * Format: date-time
             * @description When the record's content last actually changed (a rebuild that re-hashes it to the same content leaves it alone).
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When the record was first seen.
             */
            first_seen_at: string;
        };
        /** @enum {string} */
        Resource: "firm" | "company" | "round" | "investment" | "fund" | "filing" | "offering" | "adv-fund" | "list";
        Change: {
            /**
             * Format: int64
             * @description Strictly increasing across the whole feed.
             */
            sequence: number;
            /** @enum {string} */
            kind: "create" | "update" | "unpublish";
            resource: components["schemas"]["Resource"];
            /** @description The slug, id or accession number of the record. */
            key: string;
            /** Format: date-time */
            changed_at: string;
            /** @description With include=rows: the row as it is now; null for an unpublish. */
            row?: components["schemas"]["Firm"] | components["schemas"]["Company"] | components["schemas"]["Round"] | components["schemas"]["Investment"] | components["schemas"]["Fund"] | components["schemas"]["Filing"] | components["schemas"]["Offering"] | components["schemas"]["AdvFund"] | components["schemas"]["List"] | null;
        };
        ExportFile: {
            name: string;
            resource: components["schemas"]["Resource"];
            /** Format: int64 */
            rows: number;
            /** Format: int64 */
            bytes: number;
            sha256: string;
            /** Format: uri */
            url: string;
        };
        ExportDay: {
            /** Format: date */
            date: string;
            /** Format: date-time */
            generated_at: string;
            files: components["schemas"]["ExportFile"][];
        };
        /** @enum {string} */
        StatisticName: "rounds-by-year" | "rounds-by-stage" | "most-active-investors" | "fund-returns-by-vintage";
        RoundsByYearRow: {
            /** Format: int32 */
            year: number;
            /** Format: int64 */
            rounds: number;
            /** Format: int64 */
            amount_usd: number;
        };
        RoundsByStageRow: {
            /** @enum {string} */
            stage: "pre_seed" | "seed" | "series_a" | "series_b" | "series_c" | "series_d" | "series_e" | "growth" | "bridge";
            /** Format: int64 */
            rounds: number;
            /** Format: int64 */
            amount_usd: number;
            /** Format: int64 */
            median_amount_usd: number | null;
        };
        MostActiveInvestorsRow: {
            /** Format: int32 */
            rank: number;
            firm_slug: components["schemas"]["Slug"];
            firm_name: string;
            /** Format: int64 */
            investments: number;
            /** Format: int64 */
            leads: number;
        };
        FundReturnsByVintageRow: {
            /** Format: int32 */
            vintage_year: number;
            /** Format: int64 */
            funds: number;
            median_irr: number | null;
            median_tvpi: number | null;
            median_dpi: number | null;
        };
        /** @description One rollup: its name, the window it covers and one row shape per name. */
        Statistic: {
            /** @constant */
            name: "rounds-by-year";
            rows: components["schemas"]["RoundsByYearRow"][];
        } | {
            /** @constant */
            name: "rounds-by-stage";
            rows: components["schemas"]["RoundsByStageRow"][];
        } | {
            /** @constant */
            name: "most-active-investors";
            rows: components["schemas"]["MostActiveInvestorsRow"][];
        } | {
            /** @constant */
            name: "fund-returns-by-vintage";
            rows: components["schemas"]["FundReturnsByVintageRow"][];
        };
        KeySummary: {
            key_id: string;
            plan: components["schemas"]["PlanId"];
            prefix: string;
            last4: string;
            /** @enum {string} */
            status: "active" | "expired" | "exhausted" | "revoked";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
        };
        Balance: {
            /** Format: int64 */
            prepaid_rows: number;
            value_usd: number;
        } | null;
        Account: {
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
            balance: components["schemas"]["Balance"];
            keys: components["schemas"]["KeySummary"][];
        };
        TrialKeyRequest: {
            /**
             * Format: email
             * @description Where the service may reach the trial holder; never served back by the API.
             */
            email: string;
        };
        TrialKey: {
            /** @description The API key. Shown this once; store it now. */
            key: string;
            key_id: string;
            /** @constant */
            plan: "trial";
            /** Format: date-time */
            expires_at: string;
            /** Format: int64 */
            calls_limit: number;
            /** Format: int64 */
            calls_remaining: number;
        };
        Action: {
            /** @enum {string} */
            type: "get_trial_key" | "buy_prepaid_rows" | "subscribe" | "book_call";
            title: string;
            /** Format: uri-reference */
            href: string;
            /** @enum {string} */
            method: "GET" | "POST";
            /** @description get_trial_key: the content type of the request. */
            content_type?: string;
            /** @description get_trial_key: a body template. */
            body?: Record<string, never>;
            /** @description subscribe: the plan suggested. */
            plan?: components["schemas"]["PlanId"];
            /**
             * Format: int64
             * @description buy_prepaid_rows: the smallest pack.
             */
            rows?: number;
        };
        ProblemError: {
            parameter?: string;
            pointer?: string;
            detail: string;
        };
        /** @description RFC 9457 problem details with a stable machine code. */
        Problem: {
            /** Format: uri-reference */
            type: string;
            title: string;
            /** Format: int32 */
            status: number;
            detail: string;
            /** Format: uri-reference */
            instance?: string;
            /** @description Stable machine code; see DECISIONS.md#status-codes. */
            code: string;
            request_id: string;
            errors?: components["schemas"]["ProblemError"][];
            allowed?: string[];
            actions?: components["schemas"]["Action"][];
        };
        ProblemWithActions: components["schemas"]["Problem"] & {
            actions: components["schemas"]["Action"][];
        };
        FirmPage: {
            data: components["schemas"]["Firm"][];
            next_cursor: components["schemas"]["NextCursor"];
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
        CompanyPage: {
            data: components["schemas"]["Company"][];
            next_cursor: components["schemas"]["NextCursor"];
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
        RoundPage: {
            data: components["schemas"]["Round"][];
            next_cursor: components["schemas"]["NextCursor"];
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
        InvestmentPage: {
            data: components["schemas"]["Investment"][];
            next_cursor: components["schemas"]["NextCursor"];
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
        FundPage: {
            data: components["schemas"]["Fund"][];
            next_cursor: components["schemas"]["NextCursor"];
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
        FilingPage: {
            data: components["schemas"]["Filing"][];
            next_cursor: components["schemas"]["NextCursor"];
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
        OfferingPage: {
            data: components["schemas"]["Offering"][];
            next_cursor: components["schemas"]["NextCursor"];
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
        AdvFundPage: {
            data: components["schemas"]["AdvFund"][];
            next_cursor: components["schemas"]["NextCursor"];
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
        ListPage: {
            data: components["schemas"]["ListSummary"][];
            next_cursor: components["schemas"]["NextCursor"];
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
        ChangePage: {
            data: components["schemas"]["Change"][];
            next_cursor: components["schemas"]["NextCursor"];
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
        ExportManifestPage: {
            data: components["schemas"]["ExportDay"][];
            next_cursor: components["schemas"]["NextCursor"];
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
        FirmEnvelope: {
            data: components["schemas"]["Firm"];
            /** @description Always null: a single record has no next page. */
            next_cursor: null;
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
        CompanyEnvelope: {
            data: components["schemas"]["Company"];
            /** @description Always null: a single record has no next page. */
            next_cursor: null;
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
        FundEnvelope: {
            data: components["schemas"]["Fund"];
            /** @description Always null: a single record has no next page. */
            next_cursor: null;
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
        ListEnvelope: {
            data: components["schemas"]["List"];
            /** @description Always null: a single record has no next page. */
            next_cursor: null;
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
        StatisticEnvelope: {
            data: components["schemas"]["Statistic"];
            /** @description Always null: a single record has no next page. */
            next_cursor: null;
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
        AccountEnvelope: {
            data: components["schemas"]["Account"];
            /** @description Always null: a single record has no next page. */
            next_cursor: null;
            as_of: components["schemas"]["AsOf"];
            plan: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
        };
    };
    responses: {
        /** @description The representation has not changed since the ETag sent in If-None-Match. Not charged as rows. */
        NotModified: {
            headers: {
                ETag: components["headers"]["ETag"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description A bad parameter, body or cursor, or an unknown query parameter. */
        BadRequest: {
            headers: {
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No key, an unknown key or a revoked key. A data call is authenticated before its query is looked at. */
        Unauthorized: {
            headers: {
                /** @description RFC 6750: `Bearer realm="investor-graph"`, with `error="invalid_token"` when a key was sent and refused. */
                "WWW-Authenticate": string;
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemWithActions"];
            };
        };
        /** @description The trial is used up or expired, the monthly quota is used up, the prepaid balance is too low, or the plan lacks the feature. */
        PaymentRequired: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemWithActions"];
            };
        };
        /** @description No such record. */
        NotFound: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Over the plan's request rate. */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemWithActions"];
            };
        };
        /** @description A live trial already exists for this e-mail address. */
        TrialExists: {
            headers: {
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The request URL is longer than 8,192 characters. */
        UriTooLong: {
            headers: {
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body is larger than 4 KiB. */
        PayloadTooLarge: {
            headers: {
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body is not application/json, or comes in a content coding (gzip, br, deflate): bodies are read as sent, and Accept-Encoding: identity says so (RFC 7694). */
        UnsupportedMediaType: {
            headers: {
                /** @description identity, on a body refused for its content coding: the only one taken. */
                "Accept-Encoding"?: "identity";
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The service failed on this call, through no fault of the client's: the request id finds it in the service's log. Never the answer to bad input. */
        InternalError: {
            headers: {
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The service cannot serve the call now (down for a while, or the state it keeps keys and counters in is busy or out of reach): nothing was served, counted or charged. Retry after Retry-After. */
        ServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A server behind the service's gateway failed on the call: nothing was served, counted or charged. Safe to retry, after a pause: the request read nothing the retry would change. */
        BadGateway: {
            headers: {
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A server behind the service's gateway did not answer in time: nothing was served, counted or charged. Safe to retry, after a pause. */
        GatewayTimeout: {
            headers: {
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /**
         * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
         * @example 100
         */
        Limit: number;
        /** @description The next_cursor of the previous page, unchanged, with the same filters. */
        Cursor: components["schemas"]["Cursor"];
        /**
         * @description Only rounds announced on or after this date.
         * @example 2025-01-01
         */
        AnnouncedSince: string;
        /**
         * @description Start of the change window, an RFC 3339 date-time of a UTC instant: `Z` or `+00:00` (also `z`, `-00:00`, a `t`), whole seconds or a fraction of any length. Changes at or after it are listed. Another offset is a 400.
         * @example 2026-11-19T00:00:00Z
         */
        Since: string;
        /** @description rows: the changed rows come with the changes. */
        Include: "rows";
        /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
        IfNoneMatch: string;
        /**
         * @description The firm's slug.
         * @example harbor-lane-capital
         */
        FirmSlug: components["schemas"]["Slug"];
        /**
         * @description The company's slug.
         * @example tessellate-labs
         */
        CompanySlug: components["schemas"]["Slug"];
        /**
         * @description The list's slug.
         * @example climate-seed-leads
         */
        ListSlug: components["schemas"]["Slug"];
        /**
         * @description The fund's opaque id.
         * @example fnd_7c1q9w3e5r8t
         */
        FundId: components["schemas"]["FundId"];
        /**
         * @description The dump date, YYYY-MM-DD.
         * @example 2026-11-20
         */
        ExportDate: string;
        /**
         * @description The file name, `<resource>.jsonl.gz` as the manifest lists it.
         * @example firms.jsonl.gz
         */
        ExportFile: string;
        /**
         * @description One of the four rollups. Any other name is a 404 that lists the allowed ones.
         * @example rounds-by-stage
         */
        StatisticName: components["schemas"]["StatisticName"];
    };
    requestBodies: never;
    headers: {
        /** @description What is left in each window (IETF httpapi ratelimit-headers draft), e.g. `"default";r=4;t=1, "quota";r=49000;t=86400`. The "quota" item is the plan's calls for the month (or the trial), on plans that have such a limit. */
        RateLimit: string;
        /** @description The policies (IETF httpapi ratelimit-headers draft), e.g. `"default";q=5;w=1, "quota";q=50000;w=2592000`. "default" is the request rate; "quota" the plan's calls for the month (or the trial). */
        RateLimitPolicy: string;
        /** @description Seconds to wait before retrying. */
        RetryAfter: number;
        /** @description Weak validator of the data (not of `usage`, which changes every call); send it back in If-None-Match. A dump file's is strong. */
        ETag: string;
        /** @description no-store: the key must not be cached anywhere. */
        CacheControlNoStore: "no-store";
        /** @description CORS: `*`, any origin may call the API from a browser (keys travel in Authorization, never in cookies). A deployment that lets in only some origins names the request's Origin when it is one of them, and sends nothing otherwise. */
        "Access-Control-Allow-Origin": string;
    };
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    createTrialKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TrialKeyRequest"];
            };
        };
        responses: {
            /** @description The new key, shown this once. */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrialKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            409: components["responses"]["TrialExists"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listFirms: {
        parameters: {
            query?: {
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List firms. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FirmPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getFirm: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The firm's slug.
                 * @example harbor-lane-capital
                 */
                slug: components["parameters"]["FirmSlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One firm. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FirmEnvelope"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listFirmPortfolio: {
        parameters: {
            query?: {
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The firm's slug.
                 * @example harbor-lane-capital
                 */
                slug: components["parameters"]["FirmSlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A firm's investor-to-company edges. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvestmentPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listFirmFilings: {
        parameters: {
            query?: {
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The firm's slug.
                 * @example harbor-lane-capital
                 */
                slug: components["parameters"]["FirmSlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A firm's SEC Form D fund filings. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FilingPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listFirmFunds: {
        parameters: {
            query?: {
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The firm's slug.
                 * @example harbor-lane-capital
                 */
                slug: components["parameters"]["FirmSlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A firm's ADV private funds. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdvFundPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listCompanies: {
        parameters: {
            query?: {
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List companies. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getCompany: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The company's slug.
                 * @example tessellate-labs
                 */
                slug: components["parameters"]["CompanySlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One company. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyEnvelope"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listCompanyRounds: {
        parameters: {
            query?: {
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The company's slug.
                 * @example tessellate-labs
                 */
                slug: components["parameters"]["CompanySlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A company's funding rounds. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoundPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listCompanyInvestors: {
        parameters: {
            query?: {
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The company's slug.
                 * @example tessellate-labs
                 */
                slug: components["parameters"]["CompanySlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A company's investors. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvestmentPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listCompanyOfferings: {
        parameters: {
            query?: {
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The company's slug.
                 * @example tessellate-labs
                 */
                slug: components["parameters"]["CompanySlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A company's SEC Form D offerings. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfferingPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listRounds: {
        parameters: {
            query?: {
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Only rounds announced on or after this date.
                 * @example 2025-01-01
                 */
                announced_since?: components["parameters"]["AnnouncedSince"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List rounds. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoundPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listInvestments: {
        parameters: {
            query?: {
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List investments. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvestmentPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listFunds: {
        parameters: {
            query?: {
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List funds. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FundPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getFund: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The fund's opaque id.
                 * @example fnd_7c1q9w3e5r8t
                 */
                id: components["parameters"]["FundId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One fund. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FundEnvelope"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listFilings: {
        parameters: {
            query?: {
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List filings. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FilingPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listOfferings: {
        parameters: {
            query?: {
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List offerings. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfferingPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listAdvFunds: {
        parameters: {
            query?: {
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List adv-funds. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdvFundPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listLists: {
        parameters: {
            query?: {
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List lists. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getList: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The list's slug.
                 * @example climate-seed-leads
                 */
                slug: components["parameters"]["ListSlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One list with its members. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListEnvelope"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listChanges: {
        parameters: {
            query: {
                /**
                 * @description Start of the change window, an RFC 3339 date-time of a UTC instant: `Z` or `+00:00` (also `z`, `-00:00`, a `t`), whole seconds or a fraction of any length. Changes at or after it are listed. Another offset is a 400.
                 * @example 2026-11-19T00:00:00Z
                 */
                since: components["parameters"]["Since"];
                /** @description rows: the changed rows come with the changes. */
                include?: components["parameters"]["Include"];
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Changes since a timestamp. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChangePage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getExportManifest: {
        parameters: {
            query?: {
                /**
                 * @description Rows per page. Defaults to 100 or the plan's page size if lower; above the plan's page size (up to the maximum) it is capped silently; below 1, above the maximum or not an integer is a 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description The next_cursor of the previous page, unchanged, with the same filters. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Nightly full-dump manifest. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportManifestPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getExportFile: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The dump date, YYYY-MM-DD.
                 * @example 2026-11-20
                 */
                date: components["parameters"]["ExportDate"];
                /**
                 * @description The file name, `<resource>.jsonl.gz` as the manifest lists it.
                 * @example firms.jsonl.gz
                 */
                file: components["parameters"]["ExportFile"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The gzip JSONL file. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/gzip": string;
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getStatistic: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description One of the four rollups. Any other name is a 404 that lists the allowed ones.
                 * @example rounds-by-stage
                 */
                name: components["parameters"]["StatisticName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Rollup by name. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatisticEnvelope"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier answer: 304 when the representation has not changed. */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Plan, usage, balance and keys. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountEnvelope"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document. */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                        info: Record<string, never>;
                        paths: Record<string, never>;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
}
