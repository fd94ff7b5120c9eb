import { expect, test } from 'vitest';
import { Clock, parseDuration, SharedClock } from './clock.ts';
import { MemoryKeyStore } from './stores/memory/key-store.ts';

const START = Date.parse('2026-11-20T03:00:00Z');

/** A real-time source the test moves by hand: no sleeps. */
function manualTime(start = 1_000) {
  let now = start;
  return { now: () => now, pass: (ms: number) => void (now += ms) };
}

test('a running clock moves with real time; a frozen one stands still until told', () => {
  const time = manualTime();
  const running = new Clock(START, false, time.now);
  const frozen = new Clock(START, true, time.now);
  time.pass(5_000);
  expect(running.now() - START).toBe(5_000);
  expect(frozen.now()).toBe(START);
  frozen.advance(86_400_000);
  expect(frozen.state()).toEqual({ now: '2026-11-21T03:00:00.000Z', frozen: true });
});

test('the clock never goes back, and keeps whole milliseconds', () => {
  const clock = new Clock(START, true);
  expect(() => clock.set(START - 60_000)).toThrow(/forward/);
  expect(() => clock.advance(-1)).toThrow(RangeError);
  clock.advance(0.5);
  expect(Number.isInteger(clock.now())).toBe(true);
});

test('a clock restored from a saved one runs on from where the saver left it', () => {
  const time = manualTime();
  const saver = new Clock(START, false, time.now);
  const saved = saver.saved();
  time.pass(2_000);
  const reader = new Clock(0, true, time.now);
  reader.restore(saved);
  expect(reader.now()).toBe(saver.now());
});

test(
  'two mocks on one store: the second takes up the first ' +
    "one's clock, and a change made by either reaches the other",
  async () => {
    const time = manualTime();
    const store = new MemoryKeyStore();
    const a = new SharedClock(new Clock(START, true, time.now), store, time.now);
    const b = new SharedClock(new Clock(START + 999_999, true, time.now), store, time.now);
    await a.claim();
    await b.claim();
    expect(b.clock.now()).toBe(START);
    await a.change((c) => c.advance(60_000));
    await b.sync();
    // Looked at no more than every 250 ms: the change arrives once that has passed.
    expect(b.clock.now()).toBe(START);
    time.pass(250);
    await b.sync();
    expect(b.clock.now()).toBe(START + 60_000);
  },
);

test('a change starts from the clock as stored, so two advances made at once both count', async () => {
  const time = manualTime();
  const store = new MemoryKeyStore();
  const a = new SharedClock(new Clock(START, true, time.now), store, time.now);
  const b = new SharedClock(new Clock(START, true, time.now), store, time.now);
  await Promise.all([a.claim(), b.claim()]);
  await Promise.all([a.change((c) => c.advance(1_000)), b.change((c) => c.advance(1_000))]);
  expect(b.clock.now()).toBe(START + 2_000);
});

test('durations are ISO 8601 weeks, days, hours, minutes and seconds; anything else is null', () => {
  expect(parseDuration('P1DT2H')).toBe(93_600_000);
  expect(parseDuration('PT0.5S')).toBe(500);
  for (const text of ['P', 'PT', 'P1M', '1D', 'PT-1S']) expect(parseDuration(text), text).toBeNull();
});
