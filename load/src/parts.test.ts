import { expect, test } from 'vitest';
import { inSegmentOrder, PartsError } from './parts.ts';

const part = (segment: string) => ({
  plan: 'team',
  segment,
  summaryFile: `team.${segment}.summary.json`,
  samplesFile: `team.${segment}.samples.json.gz`,
});
const order = (...segments: string[]) => inSegmentOrder(segments.map(part)).map((p) => p.segment);
const refusal = (...segments: string[]) => {
  try {
    order(...segments);
  } catch (error) {
    expect(error).toBeInstanceOf(PartsError);
    return (error as Error).message;
  }
  throw new Error(`${segments.join(', ')} were taken as one run`);
};

test("parts that tile 0:1 come back in segment order, in any of k6's fraction forms", () => {
  expect(order('0:1')).toEqual(['0:1']);
  expect(order('2/3:1', '0:1/3', '1/3:2/3')).toEqual(['0:1/3', '1/3:2/3', '2/3:1']);
  expect(order('0.5:1', '0:50%')).toEqual(['0:50%', '0.5:1']);
  expect(order('1/4:1', '0:2/8')).toEqual(['0:2/8', '1/4:1']);
});

test('a gap is a part missing, named by its segment', () => {
  expect(refusal('0:1/2')).toMatch(/^part missing: segment 1\/2:1 of the team run \(found 0:1\/2\)/);
  expect(refusal('1/3:2/3')).toMatch(/^parts missing: segment 0:1\/3 and 2\/3:1 of the team run/);
  expect(refusal('0:1/3', '2/3:1')).toMatch(/segment 1\/3:2\/3/);
});

test('overlapping parts are refused, naming both files and what they both ran', () => {
  expect(refusal('0:1', '0:1/2')).toMatch(
    new RegExp(
      String.raw`^parts overlap: team\.0:1/2\.samples\.json\.gz \(segment 0:1/2\) and ` +
        String.raw`team\.0:1\.samples\.json\.gz \(segment 0:1\) both ran 0:1/2`,
    ),
  );
  expect(refusal('0:2/3', '1/2:1')).toMatch(/both ran 1\/2:2\/3/);
});

test('a segment k6 would not take is refused', () => {
  expect(refusal('0:1/0')).toMatch(/segment bound 1\/0 is not a fraction/);
  expect(refusal('half')).toMatch(/segment half is not FROM:TO/);
});
