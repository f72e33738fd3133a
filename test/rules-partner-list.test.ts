// harness/rules/partner/list.ts: "Lists the account charges, newest first, up to 200 records. Optional
// query `status` filters by one of the charge states. Response envelope and pagination: not shown."
import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import { filterByStatus, keepNewest200, listAccountCharges, listNewestFirst, locateChargeList, verifyOursListed } from '../harness/rules/partner/index.js';
import type { LocatedList } from '../harness/rules/partner/index.js';
import { answer, codes, severities } from './rules-partner-fixtures.js';

const item = (id: string, minute: number, status = 'pending') => ({ id, status, amount_cents: 1, created_at: `2026-11-22T10:${String(minute).padStart(2, '0')}:00Z` });
const list = (items: Record<string, unknown>[], paged = false): LocatedList => ({ items, shape: 'top-level array', paged });
const exchange = answer(200).exchange;
const seen = (items: Record<string, unknown>[], paged = false) => ({ list: list(items, paged), exchange });

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
  });
});

describe('listAccountCharges ("Lists the account charges")', () => {
  it('accepts a 2xx with an array in any envelope; fails one with none, and a 5xx', () => {
    expect(conforms(listAccountCharges.judge({ kind: 'answer', answer: answer(200, { items: [item('a', 1)], count: 1 }) }))).toBe(true);
    expect(codes(listAccountCharges.judge({ kind: 'answer', answer: answer(200, { count: 3 }) }))).toEqual(['list.no-array']);
    expect(codes(listAccountCharges.judge({ kind: 'answer', answer: answer(500) }))).toEqual(['list.status']);
  });
  it('fails ours missing from a short list; decides nothing on a page that may be truncated', () => {
    expect(codes(listAccountCharges.judge({ kind: 'ours', ...seen([item('x', 9)]), ours: ['a'] }))).toEqual(['list.missing']);
    expect(listAccountCharges.judge({ kind: 'ours', ...seen([item('x', 9)], true), ours: ['a'] }).requirements).toEqual([]);
  });
  it('fails another account\'s charge listed, and ours listed in a state it is not in', () => {
    expect(codes(listAccountCharges.judge({ kind: 'foreign', ...seen([item('b', 1)]), foreignId: 'b' }))).toEqual(['list.other-account']);
    expect(conforms(listAccountCharges.judge({ kind: 'foreign', ...seen([item('a', 1)]), foreignId: 'b' }))).toBe(true);
    expect(codes(listAccountCharges.judge({ kind: 'states', ...seen([item('a', 1, 'pending')]), known: { a: 'paid' }, why: 'x' }))).toEqual(['list.stale-state']);
  });
});

describe('listNewestFirst', () => {
  it('accepts newest first with our charges in reverse creation order; ties in created_at say nothing', () => {
    expect(conforms(listNewestFirst.judge({ ...seen([item('c', 3), item('x', 2), item('b', 2), item('a', 1)]), ours: ['a', 'b', 'c'] }))).toBe(true);
    expect(conforms(listNewestFirst.judge({ ...seen([item('a', 1), item('b', 1)]), ours: ['a', 'b'] }))).toBe(true);
  });
  it('fails an oldest-first list', () => {
    expect(codes(listNewestFirst.judge({ ...seen([item('a', 1), item('b', 2)]), ours: ['a', 'b'] }))).toEqual(['list.order']);
  });
});

describe('keepNewest200 ("newest first, up to 200 records")', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => item(`i${i}`, 1));
  it('accepts 200, and fewer when the account holds fewer; fails 201; warns on a short unpaged list of a larger account', () => {
    expect(conforms(keepNewest200.judge({ kind: 'cap', ...seen(many(200)), accountHoldsMoreThanCap: true }))).toBe(true);
    expect(conforms(keepNewest200.judge({ kind: 'cap', ...seen(many(3)) }))).toBe(true);
    expect(severities(keepNewest200.judge({ kind: 'cap', ...seen(many(201)) }))).toEqual(['list.over-200:failure']);
    expect(severities(keepNewest200.judge({ kind: 'cap', ...seen(many(50)), accountHoldsMoreThanCap: true }))).toEqual(['list.short:warning']);
  });
  const at = (s: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
  const older = [{ id: 'a', created_at: at(2) }, { id: 'b', created_at: at(1) }];
  const kept = (items: Record<string, unknown>[], ours: Array<{ id: string; createdAt: unknown }>, knownOlder?: unknown[]) => keepNewest200.judge({ kind: 'kept', ...seen(items), ours, ...(knownOlder ? { knownOlder } : {}) });
  it('fails a dropped newer charge of ours while an older one is listed', () => {
    expect(codes(kept([item('x', 9), item('a', 1)], [{ id: 'a', createdAt: undefined }, { id: 'b', createdAt: undefined }]))).toEqual(['list.newest-dropped']);
  });
  it('accepts a list showing ours, or something at least as new as ours', () => {
    expect(conforms(kept([{ id: 'ours', created_at: at(10) }, ...older], [{ id: 'ours', createdAt: at(10) }]))).toBe(true);
    expect(conforms(kept([{ id: 'x', created_at: at(11) }, ...older], [{ id: 'ours', createdAt: at(10) }]))).toBe(true);
  });
  it('fails a list whose every charge is older than ours, or that shows one known to be older, while ours are missing', () => {
    expect(codes(kept(older, [{ id: 'ours', createdAt: at(10) }]))).toEqual(['list.newest-dropped']);
    const tied = [{ id: 'a', created_at: at(10) }, { id: 'b', created_at: at(10) }];
    expect(codes(kept(tied, [{ id: 'ours', createdAt: at(10) }], ['b']))).toEqual(['list.newest-dropped']);
  });
  it('accepts ours missing behind created_at ties when nothing listed is known to be older; decides nothing without items or ours', () => {
    const tied = [{ id: 'a', created_at: at(10) }, { id: 'b', created_at: at(10) }];
    expect(conforms(kept(tied, [{ id: 'ours', createdAt: at(10) }], ['z']))).toBe(true);
    expect(conforms(kept(older, [{ id: 'ours', createdAt: 'yesterday' }]))).toBe(true);
    expect(kept([], [{ id: 'ours', createdAt: at(10) }]).requirements).toEqual([]);
    expect(kept(older, []).requirements).toEqual([]);
  });
});

describe('verifyOursListed (order, presence, none dropped)', () => {
  it('accepts ours newest first, and reports each deviation under its own rule', () => {
    expect(conforms(verifyOursListed.judge({ ...seen([item('b', 2), item('a', 1)]), ours: ['a', 'b'] }))).toBe(true);
    expect(codes(verifyOursListed.judge({ ...seen([item('a', 1), item('b', 2)]), ours: ['a', 'b'] }))).toEqual(['list.order']);
    expect(codes(verifyOursListed.judge({ ...seen([item('x', 9)]), ours: ['a'] }))).toEqual(['list.missing']);
  });
});

describe('filterByStatus', () => {
  it('accepts only that state, ours included; a pending filter may show a lazily expired charge', () => {
    expect(conforms(filterByStatus.judge({ kind: 'filtered', ...seen([item('p', 1), item('e', 0, 'expired')]), state: 'pending', ours: { pending: 'p', paid: 'q' } }))).toBe(true);
  });
  it('fails other states, our charge missing, our other-state charge listed, a refused filter', () => {
    expect(codes(filterByStatus.judge({ kind: 'filtered', ...seen([item('q', 1, 'paid'), item('z', 1)]), state: 'paid', ours: { paid: 'p2', pending: 'z' } }))).toEqual(['list.filter', 'list.filter-missing', 'list.filter']);
    expect(codes(filterByStatus.judge({ kind: 'answer', answer: answer(422, { detail: 'x' }), state: 'paid' }))).toEqual(['list.filter-status']);
  });
});
