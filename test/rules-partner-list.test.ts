import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import { ensureListedOnce, ensureNotListed, locateChargeList, verifyChargeList, verifyListCap, verifyNewestFirst, verifyStatusFilter } from '../harness/rules/partner/index.js';
import type { LocatedList } from '../harness/rules/partner/index.js';
import { codes, severities } from './rules-partner-fixtures.js';

const item = (id: string, minute: number, status = 'pending') => ({ id, status, amount_cents: 1, created_at: `2026-11-22T10:${String(minute).padStart(2, '0')}:00Z` });
const list = (items: Record<string, unknown>[], paged = false): LocatedList => ({ items, shape: 'top-level array', paged });

describe('locateChargeList (the one locator: list checks and the fuzzer)', () => {
  it('finds a top-level array, an envelope property, a nested one, and an empty data', () => {
    expect(locateChargeList([item('a', 1)])?.shape).toBe('top-level array');
    expect(locateChargeList({ data: [item('a', 1)], meta: { tags: [{ x: 1 }] } })?.shape).toBe('property "data"');
    expect(locateChargeList({ result: { charges: [item('a', 1)] } })?.shape).toBe('property "result.charges"');
    expect(locateChargeList({ items: [], total: 0 })?.items).toEqual([]);
    expect(locateChargeList({ data: [item('a', 1)], next_cursor: 'abc' })?.paged).toBe(true);
  });
  it('finds nothing in a non-list', () => {
    expect(locateChargeList({ count: 3 })).toBeUndefined();
    expect(locateChargeList('x')).toBeUndefined();
    expect(codes(verifyChargeList({ count: 3 }, { requirements: ['PT-LIST-ACCOUNT-SCOPE'] }).judgement)).toEqual(['list.no-array']);
  });
});

describe('verifyNewestFirst', () => {
  it('accepts newest first with our charges in reverse creation order; ties in created_at say nothing', () => {
    expect(conforms(verifyNewestFirst(list([item('c', 3), item('x', 2), item('b', 2), item('a', 1)]), ['a', 'b', 'c'], {}))).toBe(true);
    expect(conforms(verifyNewestFirst(list([item('a', 1), item('b', 1)]), ['a', 'b'], {}))).toBe(true);
  });
  it('fails an oldest-first list, a dropped newer charge, and ours missing from a short list', () => {
    expect(codes(verifyNewestFirst(list([item('a', 1), item('b', 2)]), ['a', 'b'], {}))).toContain('list.order');
    expect(codes(verifyNewestFirst(list([item('x', 9), item('a', 1)]), ['a', 'b'], {}))).toContain('list.newest-dropped');
    expect(codes(verifyNewestFirst(list([item('x', 9)]), ['a'], {}))).toEqual(['list.missing']);
  });
  it('decides no presence on a page that may be truncated', () => {
    expect(verifyNewestFirst(list([item('x', 9)], true), ['a'], {}).requirements).not.toContain('PT-LIST-ACCOUNT-SCOPE');
  });
});

describe('verifyListCap', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => item(`i${i}`, 1));
  it('accepts 200, and fewer when the account holds fewer', () => {
    expect(conforms(verifyListCap(list(many(200)), { requirements: ['PT-LIST-MAX-200'], accountHoldsMoreThanCap: true }))).toBe(true);
    expect(conforms(verifyListCap(list(many(3)), { requirements: ['PT-LIST-MAX-200'] }))).toBe(true);
  });
  it('fails 201; warns on a short unpaged list of a larger account', () => {
    expect(severities(verifyListCap(list(many(201)), { requirements: ['PT-LIST-MAX-200'] }))).toEqual(['list.over-200:failure']);
    expect(severities(verifyListCap(list(many(50)), { requirements: ['PT-LIST-MAX-200'], accountHoldsMoreThanCap: true }))).toEqual(['list.short:warning']);
  });
});

describe('verifyStatusFilter', () => {
  const ctx = { requirements: ['PT-LIST-STATUS-FILTER'] as const };
  it('accepts only that state, ours included; a pending filter may show a lazily expired charge', () => {
    expect(conforms(verifyStatusFilter(list([item('p', 1), item('e', 0, 'expired')]), 'pending', { pending: 'p', paid: 'q' }, ctx))).toBe(true);
  });
  it('fails other states, our charge missing, our other-state charge listed', () => {
    expect(codes(verifyStatusFilter(list([item('q', 1, 'paid'), item('z', 1)]), 'paid', { paid: 'p2', pending: 'z' }, ctx))).toEqual(['list.filter', 'list.filter-missing', 'list.filter']);
  });
});

describe('ensureNotListed / ensureListedOnce', () => {
  it('accept a clean list', () => {
    expect(conforms(ensureNotListed(list([item('a', 1)]), 'b', { requirements: ['PT-ENV-ISOLATION'], code: 'env.shared-list', whose: 'x' }))).toBe(true);
    expect(conforms(ensureListedOnce(list([item('a', 1), item('b', 1)]), { requirements: ['PT-STATE-ONE-TRANSITION'] }))).toBe(true);
  });
  it('fail a foreign charge and a duplicate', () => {
    expect(codes(ensureNotListed(list([item('b', 1)]), 'b', { requirements: ['PT-LIST-ACCOUNT-SCOPE'], code: 'list.other-account', whose: 'x' }))).toEqual(['list.other-account']);
    expect(codes(ensureListedOnce(list([item('a', 1), item('a', 1, 'paid')]), { requirements: ['PT-STATE-ONE-TRANSITION'] }))).toEqual(['list.duplicate']);
  });
});
