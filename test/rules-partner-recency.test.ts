// harness/rules/partner/recency.ts: which charges and postings a bounded listing shows (issue 15).
import { describe, expect, it } from 'vitest';
import { ensureLatestPostingsShown, ensureNewestKept, statementSeen } from '../harness/rules/partner/recency.js';
import type { Judgement } from '../harness/rules/finding.js';

const codes = (j: Judgement): string[] => j.findings.map((f) => `${f.severity}:${f.code}`);
const decided = (j: Judgement): boolean => j.requirements.length > 0;
const at = (s: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();

describe('ensureNewestKept', () => {
  const ctx = { requirements: ['PT-LIST-MAX-200'] as const };
  const older = [{ id: 'a', created_at: at(2) }, { id: 'b', created_at: at(1) }];
  it('accepts a list showing ours, or something at least as new as ours', () => {
    expect(codes(ensureNewestKept([{ id: 'ours', created_at: at(10) }, ...older], [{ id: 'ours', createdAt: at(10) }], ctx))).toEqual([]);
    expect(codes(ensureNewestKept([{ id: 'x', created_at: at(11) }, ...older], [{ id: 'ours', createdAt: at(10) }], ctx))).toEqual([]);
  });
  it('fails a list whose every charge is older than ours while ours are missing', () => {
    expect(codes(ensureNewestKept(older, [{ id: 'ours', createdAt: at(10) }], ctx))).toEqual(['failure:list.newest-dropped']);
  });
  it('fails a list showing a charge known to be older while ours are missing, whatever the clocks say', () => {
    const tied = [{ id: 'a', created_at: at(10) }, { id: 'b', created_at: at(10) }];
    expect(codes(ensureNewestKept(tied, [{ id: 'ours', createdAt: at(10) }], ctx, ['b']))).toEqual(['failure:list.newest-dropped']);
  });
  it('accepts ours missing behind created_at ties when nothing listed is known to be older', () => {
    const tied = [{ id: 'a', created_at: at(10) }, { id: 'b', created_at: at(10) }];
    expect(codes(ensureNewestKept(tied, [{ id: 'ours', createdAt: at(10) }], ctx, ['z']))).toEqual([]);
    expect(codes(ensureNewestKept(older, [{ id: 'ours', createdAt: 'yesterday' }], ctx))).toEqual([]);
    expect(codes(ensureNewestKept([{ id: 'a' }], [{ id: 'ours', createdAt: at(10) }], ctx))).toEqual([]);
  });
  it('decides nothing without items or ours', () => {
    expect(decided(ensureNewestKept([], [{ id: 'ours', createdAt: at(10) }], ctx))).toBe(false);
    expect(decided(ensureNewestKept(older, [], ctx))).toBe(false);
  });
});

describe('ensureLatestPostingsShown', () => {
  const ctx = { requirements: ['PT-FIN-LAST-50'] as const };
  const ids = (from: number): string[] => Array.from({ length: 50 }, (_, i) => `txn_${from + i}`);
  it('accepts a full statement whose shown postings changed with the balance', () => {
    expect(codes(ensureLatestPostingsShown({ postingIds: ids(0), available: 100 }, { postingIds: ids(1), available: 190 }, ctx))).toEqual([]);
  });
  it('fails a full statement that shows the same 50 postings although the balance moved', () => {
    expect(codes(ensureLatestPostingsShown({ postingIds: ids(0), available: 100 }, { postingIds: ids(0), available: 190 }, ctx))).toEqual(['failure:finance.not-last-50']);
  });
  it('decides nothing on a statement that is not full, or a balance that did not move', () => {
    expect(decided(ensureLatestPostingsShown({ postingIds: ['a'], available: 100 }, { postingIds: ['a'], available: 190 }, ctx))).toBe(false);
    expect(decided(ensureLatestPostingsShown({ postingIds: ids(0), available: 100 }, { postingIds: ids(0), available: 100 }, ctx))).toBe(false);
  });
  it('reads ids and an integer balance from a statement', () => {
    expect(statementSeen({ available_cents: 5, transactions: [{ id: 't' }] })).toEqual({ postingIds: ['t'], available: 5 });
    expect(statementSeen({ available_cents: '5' })).toEqual({ postingIds: [], available: undefined });
  });
});
