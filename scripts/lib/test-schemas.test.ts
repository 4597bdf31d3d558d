import { afterEach, describe, expect, it, vi } from 'vitest';
import { leftOverSchemas, testSchemaName } from './test-schemas.ts';

const hour = 60 * 60 * 1000;
afterEach(() => vi.unstubAllEnvs());

describe('the test schemas npm test drops', () => {
  it('are, of a run’s, those whose run no longer holds its lock, however recent; never one of a run still going, however old', () => {
    vi.stubEnv('PARLEY_TEST_RUN', (50_000).toString(36));
    const made = Date.now();
    const ofRun = [testSchemaName('db'), testSchemaName('template'), testSchemaName('other')];
    const withPgBoss = [...ofRun, `${ofRun[1]}_pgboss`];
    // pg-boss's schema beside a test schema keeps within pg-boss's 50 characters.
    expect(Math.max(...withPgBoss.map((name) => name.length))).toBeLessThanOrEqual(50);
    expect(leftOverSchemas(withPgBoss, made + 5 * hour, new Set([50_000]))).toEqual([]);
    expect(leftOverSchemas(withPgBoss, made, new Set([60_000]))).toEqual(withPgBoss);
    expect(leftOverSchemas(withPgBoss, made, new Set())).toEqual(withPgBoss);
  });

  it('are, of those no run made (a bench’s), those made over two hours ago, and those whose name gives no time', () => {
    vi.stubEnv('PARLEY_TEST_RUN', '');
    const made = Date.now();
    const names = [testSchemaName('db'), testSchemaName('template'), testSchemaName('other')];
    const withPgBoss = [...names, `${names[0]}_pgboss`];
    expect(leftOverSchemas(withPgBoss, made + hour, new Set())).toEqual([]);
    expect(leftOverSchemas(withPgBoss, made + 2 * hour + 1_000, new Set())).toEqual(withPgBoss);
    // Names made before they carried their time.
    const undated = ['parley_test_1a2b3c4d5e6f', 'parley_test_1a2b3c4d5e6f_pgboss', 'parley_test_template_0b04eb7a32b2', 'parley_test_other_mf3k2x'];
    expect(leftOverSchemas(undated, made, new Set())).toEqual(undated);
  });
});
