/**
 * The contract-tests CLI's --help: every flag, what a run writes, its exit codes. A line the
 * terminal shows longer than 120 columns is continued here with a backslash (no line break in it).
 */
import { exitCodesHelp } from '@investor-graph/cli';
import { planIds, plans } from '@investor-graph/contract';
import { properties } from '../properties.ts';

export const usage = `usage: investor-graph-contract-tests --base-url URL (--key KEY --plan PLAN | --key PLAN=KEY ... \
| --email ADDRESS --plan trial) [options]
       investor-graph-contract-tests diff (--base-url URL | --contract FILE) [--baseline FILE] [options]
  --base-url URL       the API, e.g. https://api.example.com or http://127.0.0.1:4010
  --key KEY            the key to test with, of the plan --plan names; better the INVESTOR_GRAPH_KEY
                       environment variable, since a command line shows in ps, shell history and CI logs
  --key PLAN=KEY       a key of a plan, repeatable (one per plan): the run checks the rules that
                       need each plan in one go, sharing the budget; INVESTOR_GRAPH_KEYS may hold
                       them instead, comma-separated (PLAN=KEY,PLAN=KEY)
  --email ADDRESS      get a trial key for this address instead (with --plan trial)
  --plan PLAN          the plan of a plain --key: ${planIds.join(', ')}
  --budget-calls N     never make more than N calls, 2 or more; shared evenly between the keys
                       (by default each key's plan sets its own: 1% of a month's calls, 30% of a
                       trial's, 500 on pay as you go; the run prints it)
  --budget-rows N      never be served more than N rows; pay as you go bills at least its minimum a
                       call (by default 20,000, pay as you go 5,000: $25 of rows)
  --failed-auth-burst  send admission's 110 calls with keys that are not valid, which lock the run's
                       address (and every client behind it) out for ten seconds, to a service that
                       is not on this machine too (by default only to loopback)
  --seed N             fast-check's seed (random; printed so a run can be replayed)
  --runs N             generated cases per property, at most, after its boundary cases (25)
  --only IDS           run only these properties, comma-separated: ${properties.map((p) => p.id).join(', ')}
  --path P             with --seed and one --only: replay the failing case fast-check printed
  --replay-path R      with --path: the shrunk sequence of calls the replay line printed
  --no-rate-burst      leave out the short burst above the plan's rate (three seconds' worth of
                       calls) that shows the 429, Retry-After and the limiter; on by default, so
                       that a default run checks every rule the key's plan can show (--allow-rate,
                       which turned it on before, is still accepted)
  --use-control        against the kit's mock: drive its control API to reach more rules (a trial
                       key's usage, an hour of rebuilds per stability case); it moves the mock's
                       simulated clock forward, which cannot be undone. Off by default. Given no
                       key, it makes a key of every plan through the control API and runs them all
  --exhaust-trial      allow spending a fresh trial's ${plans.trial.calls_limit!.toLocaleString('en')} calls to see it \
run out (the mock needs no flag)
  --baseline FILE      the run starts with the contract the service serves against the kit's
                       (oasdiff; a change that breaks clients, or a served contract that cannot be
                       read, fails the run): against this contract file instead (the last one
                       seen); see investor-graph-contract-tests diff --help
  --no-diff            leave that comparison out (a run with --only or --path, as a replay is,
                       leaves it out too: it is about the properties it names)
  --no-model           leave out the model: by default every answer is also judged against the
                       kit's engine on the service's own data (its dump with a Business or
                       Enterprise key, else --data, else none: then behaviour only), whose set-up
                       reads the account, the dump and the feed since it (a dozen calls of the
                       budget), and the sequences of calls judged against it run
  --data DIR           the model's data where the key cannot read the service's dump: a dump as
                       its links lay it out, or a folder investor-graph-dataset sync wrote
  --junit FILE         JUnit XML (contract-test-results/junit.xml)
  --report FILE        JSON report (contract-test-results/report.json)
  --html FILE          also a page to read the run in a browser, offline: the rule matrix, the
                       operations called, each failure with its call and replay lines (none by default)
  --verbose            also vitest's own report: its tree of every test, and each failure with its
                       stack (by default a line per property as it finishes, and a summary)
  -h, --help           this text
  --version            the package and its version

${exitCodesHelp('investor-graph-contract-tests')}`;
