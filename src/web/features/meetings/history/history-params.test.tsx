import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, hasFilters, readHistoryParams, toListQuery, writeHistoryParams } from './history-params.ts';

const read = (query: string) => readHistoryParams(new URLSearchParams(query));

describe('history URL parameters', () => {
  it('reads every filter and round-trips through the URL', () => {
    const params = read('q=roadmap&from=2026-11-01&to=2026-11-30&status=ready&participant=Sarah%20Miller&page=2&pageSize=3');
    expect(params).toEqual({ q: 'roadmap', from: '2026-11-01', to: '2026-11-30', status: 'ready', participant: 'Sarah Miller', page: 2, pageSize: 3 });
    expect(writeHistoryParams(params).toString()).toBe('q=roadmap&from=2026-11-01&to=2026-11-30&status=ready&participant=Sarah+Miller&page=2&pageSize=3');
    expect(hasFilters(params)).toBe(true);
  });

  it('falls back to defaults for anything invalid and keeps defaults out of the URL', () => {
    const params = read('q=%20%20&from=yesterday&to=2026-13-45&status=done&page=-3&pageSize=abc');
    expect(params).toEqual({ q: '', page: 1, pageSize: DEFAULT_PAGE_SIZE });
    expect(writeHistoryParams(params).toString()).toBe('');
    expect(hasFilters(params)).toBe(false);
    expect(read('pageSize=1000').pageSize).toBe(100);
  });

  it('turns into the API query without empty search text', () => {
    expect(toListQuery(read('page=3'))).toEqual({
      from: undefined,
      to: undefined,
      status: undefined,
      participant: undefined,
      page: 3,
      pageSize: DEFAULT_PAGE_SIZE,
    });
  });
});
