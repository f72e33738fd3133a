import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import { ensureConflictRefused, ensureDistinctCharges, judgeSameKeyBurst, verifyReplayedCharge } from '../harness/rules/partner/index.js';
import { answer, codes } from './rules-partner-fixtures.js';

describe('verifyReplayedCharge', () => {
  it('accepts the original id; decides nothing on a refusal', () => {
    expect(conforms(verifyReplayedCharge('c1', answer(200, { id: 'c1' }), { requirements: ['PT-IDEM-REPLAY'] }))).toBe(true);
    expect(verifyReplayedCharge('c1', answer(409, { detail: 'x' }), { requirements: ['PT-IDEM-REPLAY'] }).requirements).toEqual([]);
  });
  it('fails a new charge', () => {
    expect(codes(verifyReplayedCharge('c1', answer(200, { id: 'c2' }), { requirements: ['PT-IDEM-REPLAY'] }))).toEqual(['idempotency.new-record']);
  });
});

describe('ensureConflictRefused', () => {
  it('accepts 409 {detail}', () => {
    expect(conforms(ensureConflictRefused(answer(409, { detail: 'key reused' }), { requirements: ['PT-IDEM-CONFLICT-409'] }))).toBe(true);
  });
  it('fails a 2xx and a 422', () => {
    expect(codes(ensureConflictRefused(answer(200, { id: 'c1' }), { requirements: ['PT-IDEM-CONFLICT-409'] }))).toEqual(['idempotency.conflict-accepted']);
    expect(codes(ensureConflictRefused(answer(422, { detail: 'x' }), { requirements: ['PT-IDEM-CONFLICT-409'] }))).toEqual(['status.unexpected']);
  });
});

describe('ensureDistinctCharges', () => {
  it('accepts distinct ids (undefined ignored)', () => {
    expect(conforms(ensureDistinctCharges(['a', 'b', undefined], { requirements: ['PT-IDEM-ABSENT-NEW'] }))).toBe(true);
  });
  it('fails a repeated id, or one already known', () => {
    expect(codes(ensureDistinctCharges(['a', 'a'], { requirements: ['PT-IDEM-ABSENT-NEW'] }))).toEqual(['idempotency.deduplicated']);
    expect(codes(ensureDistinctCharges(['a'], { requirements: ['PT-IDEM-ABSENT-NEW'], known: ['a'] }))).toEqual(['idempotency.deduplicated']);
  });
});

describe('judgeSameKeyBurst', () => {
  it('accepts one id, in-flight 409s included', () => {
    expect(conforms(judgeSameKeyBurst([answer(200, { id: 'a' }), answer(200, { id: 'a' }), answer(409, { detail: 'in flight' })], { requirements: ['PT-IDEM-NO-REPEAT'] }))).toBe(true);
  });
  it('fails two ids', () => {
    expect(codes(judgeSameKeyBurst([answer(200, { id: 'a' }), answer(200, { id: 'b' })], { requirements: ['PT-IDEM-NO-REPEAT'] }))).toEqual(['idempotency.race']);
  });
});
