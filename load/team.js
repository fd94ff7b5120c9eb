// k6 load test for the team plan: k6 run -e BASE_URL=http://127.0.0.1:4010 load/team.js
import { planTest } from './lib/plan-test.js';

export const { options, setup, atRate, aboveRate, cursorWalk, changesPoll, handleSummary } = planTest('team');
