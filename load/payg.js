// k6 load test for the payg plan: k6 run -e BASE_URL=http://127.0.0.1:4010 load/payg.js
import { planTest } from './lib/plan-test.js';

const t = planTest('payg');
export const options = t.options;
export const setup = t.setup;
export const atRate = t.atRate;
export const aboveRate = t.aboveRate;
export const cursorWalk = t.cursorWalk;
export const changesPoll = t.changesPoll;
export const handleSummary = t.handleSummary;
