import { testRule } from '../test-rule.ts';

testRule('ig-statistics-names', [
  { name: 'a fifth statistic', break: (d) => d.components.schemas.StatisticName.enum.push('rounds-by-month') },
  { name: 'a free-form name', break: (d) => (d.components.schemas.StatisticName = { type: 'string' }) },
]);
