import { describe, expect, it } from 'vitest';
import { leftOverSchemas, testSchemaName } from './test-schemas.ts';

describe('the test schemas npm test drops', () => {
  it('are those made over two hours ago, and those whose name gives no time: never a run still going', () => {
    const hour = 60 * 60 * 1000;
    const made = Date.now();
    const names = [testSchemaName('db'), testSchemaName('template'), testSchemaName('other')];
    const withPgBoss = [...names, `${names[0]}_pgboss`];
    expect(leftOverSchemas(withPgBoss, made + hour)).toEqual([]);
    expect(leftOverSchemas(withPgBoss, made + 2 * hour + 1_000)).toEqual(withPgBoss);
    // Names made before they carried their time.
    const undated = ['parley_test_1a2b3c4d5e6f', 'parley_test_1a2b3c4d5e6f_pgboss', 'parley_test_template_0b04eb7a32b2', 'parley_test_other_mf3k2x'];
    expect(leftOverSchemas(undated, made)).toEqual(undated);
  });
});
