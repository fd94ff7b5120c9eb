/**
 * The token bucket's arithmetic, written once: every store's buckets run it (the memory limiter and
 * the SQLite store's buckets call `bucketStep`; the Redis store's script is generated from the same
 * formulas by `bucketLua`, as its metering script is from the metering table). The formulas are data,
 * so TypeScript evaluates them and Lua prints them: neither is a copy kept by hand.
 */

/** A formula over the step's inputs: a number, an input's name, or an operation of formulas. */
export type Formula =
  | number
  | BucketInput
  | [op: '+' | '-' | '*' | '/' | 'min' | 'max', a: Formula, b: Formula]
  | [op: 'ceil', a: Formula]
  | [op: 'if>=', a: Formula, b: Formula, then: Formula, otherwise: Formula]
  | [op: 'if=', a: Formula, b: Formula, then: Formula, otherwise: Formula];

/** What a step reads: the bucket as kept, the time since it was filled, its size and rate, and the move. */
export type BucketInput = 'tokens' | 'elapsedMs' | 'capacity' | 'perSecond' | 'move' | 'refilled' | 'wait' | 'left';

/** What a step does to a bucket: take a token (1), only look (0), or give one back (-1). */
export type BucketMove = 1 | 0 | -1;

/** The step, in order: each line a name and its formula, later lines reading earlier ones. */
export const bucketFormulas = {
  /** Topped up for the time since it was last filled, to at most its capacity. */
  refilled: ['min', 'capacity', ['+', 'tokens', ['*', ['/', ['max', 0, 'elapsedMs'], 1000], 'perSecond']]],
  /** 0 when a token is there, else the whole seconds until one is (Retry-After). */
  wait: ['if>=', 'refilled', 1, 0, ['max', 1, ['ceil', ['/', ['-', 1, 'refilled'], 'perSecond']]]],
  /** The tokens after the move: one given back (at most the capacity), or one taken when there. */
  left: [
    'if=',
    'move',
    -1,
    ['min', 'capacity', ['+', 'refilled', 1]],
    ['if=', 'move', 1, ['if=', 'wait', 0, ['-', 'refilled', 1], 'refilled'], 'refilled'],
  ],
  /** Milliseconds until the bucket is full again, with a second to spare: a store may drop it after. */
  fullAfterMs: ['+', ['ceil', ['*', ['/', ['-', 'capacity', 'left'], 'perSecond'], 1000]], 1000],
} as const satisfies Record<string, Formula>;

type Values = Partial<Record<BucketInput | keyof typeof bucketFormulas, number>>;

function evaluate(formula: Formula, values: Values): number {
  if (typeof formula === 'number') return formula;
  if (typeof formula === 'string') return values[formula]!;
  const [op, a, b, then, otherwise] = formula as [string, Formula, Formula, Formula, Formula];
  const x = evaluate(a, values);
  if (op === 'ceil') return Math.ceil(x);
  const y = evaluate(b, values);
  if (op === 'if>=') return evaluate(x >= y ? then : otherwise, values);
  if (op === 'if=') return evaluate(x === y ? then : otherwise, values);
  const binary = { '+': x + y, '-': x - y, '*': x * y, '/': x / y, min: Math.min(x, y), max: Math.max(x, y) };
  return binary[op as keyof typeof binary];
}

/** What a step gives: `wait` (0, or whole seconds until a token is there), the tokens `left`, when it is full again. */
export interface BucketStep {
  wait: number;
  left: number;
  fullAfterMs: number;
}

/** One step of a bucket `tokens` strong, filled `elapsedMs` ago (a new bucket: `capacity`, 0). */
export function bucketStep(
  bucket: { tokens: number; elapsedMs: number },
  capacity: number,
  perSecond: number,
  move: BucketMove,
): BucketStep {
  const values: Values = { ...bucket, capacity, perSecond, move };
  for (const [name, formula] of Object.entries(bucketFormulas))
    values[name as keyof typeof bucketFormulas] = evaluate(formula, values);
  return { wait: values.wait!, left: values.left!, fullAfterMs: values.fullAfterMs! };
}

function lua(formula: Formula): string {
  if (typeof formula === 'number') return String(formula);
  if (typeof formula === 'string') return formula;
  const [op, a, b, then, otherwise] = formula as [string, Formula, Formula, Formula, Formula];
  if (op === 'ceil') return `math.ceil(${lua(a)})`;
  if (op === 'min' || op === 'max') return `math.${op}(${lua(a)}, ${lua(b)})`;
  // Lua's `and`/`or` picks the branch: a number is never false there, so 0 is taken as it is.
  if (op === 'if>=') return `((${lua(a)} >= ${lua(b)}) and ${lua(then)} or ${lua(otherwise)})`;
  if (op === 'if=') return `((${lua(a)} == ${lua(b)}) and ${lua(then)} or ${lua(otherwise)})`;
  return `(${lua(a)} ${op} ${lua(b)})`;
}

/** The step as Lua locals (`refilled`, `wait`, `left`, `fullAfterMs`), reading locals named as the inputs. */
export function bucketLua(): string {
  return Object.entries(bucketFormulas)
    .map(([name, formula]) => `local ${name} = ${lua(formula)}`)
    .join('\n');
}
