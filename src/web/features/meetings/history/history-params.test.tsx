import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, hasFilters, pageItems, readHistoryParams, toListQuery, totalPages, writeHistoryParams } from './history-params.ts';

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

describe('pagination', () => {
  it('counts pages from the total and page size', () => {
    expect(totalPages(0, 6)).toBe(1);
    expect(totalPages(6, 6)).toBe(1);
    expect(totalPages(7, 6)).toBe(2);
  });

  it('shows every page when there are few, else the ends and the neighbourhood', () => {
    expect(pageItems(1, 3)).toEqual([1, 2, 3]);
    expect(pageItems(1, 20)).toEqual([1, 2, 3, 4, 'gap', 20]);
    expect(pageItems(10, 20)).toEqual([1, 'gap', 9, 10, 11, 'gap', 20]);
    expect(pageItems(20, 20)).toEqual([1, 'gap', 17, 18, 19, 20]);
    expect(pageItems(3, 8)).toEqual([1, 2, 3, 4, 'gap', 8]);
  });
});
