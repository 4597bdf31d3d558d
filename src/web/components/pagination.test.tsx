import { describe, expect, it } from 'vitest';
import { pageItems, totalPages } from './pagination.tsx';

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
