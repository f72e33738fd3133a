// harness/rules/partner/idempotency.ts: "same key and same body returns the original response without
// repeating the effect; same key with a different body gives 409; without the header every call creates a new record."
import { describe, expect, it } from 'vitest';
import { conforms } from '../harness/rules/finding.js';
import { acceptCreationWithoutKey, answerChargeCreation, createWithoutKey, refuseKeyReuse, replayWithoutRepeating, treatEquivalentBodies } from '../harness/rules/partner/index.js';
import { answer, codes, severities } from './rules-partner-fixtures.js';

describe('replayWithoutRepeating', () => {
  it('accepts a replay answering 200 with the original id', () => {
    expect(conforms(replayWithoutRepeating.judge({ kind: 'replay', originalId: 'c1', answer: answer(200, { id: 'c1' }) }))).toBe(true);
    expect(conforms(replayWithoutRepeating.judge({ kind: 'replay', originalId: 'c1', answer: answer(200, { data: { id: 'c1' } }) }))).toBe(true);
  });
  it('fails a new charge, and a replay refused', () => {
    expect(codes(replayWithoutRepeating.judge({ kind: 'replay', originalId: 'c1', answer: answer(200, { id: 'c2' }) }))).toEqual(['idempotency.new-record']);
    expect(codes(replayWithoutRepeating.judge({ kind: 'replay', originalId: 'c1', answer: answer(409, { detail: 'x' }) }))).toEqual(['idempotency.replay-status']);
  });
  it('an equivalent body: a 409 decides nothing here; a second charge fails (either reading of "same body")', () => {
    expect(replayWithoutRepeating.judge({ kind: 'equivalent', originalId: 'c1', answer: answer(409, { detail: 'x' }) }).requirements).toEqual([]);
    const j = replayWithoutRepeating.judge({ kind: 'equivalent', originalId: 'c1', answer: answer(200, { id: 'c2' }) });
    expect(severities(j)).toEqual(['idempotency.new-record:failure']);
    expect(j.requirements).toEqual(['PT-IDEM-NO-REPEAT']);
  });
  it('a burst: one id among the 2xx, in-flight 409s included; two ids fail', () => {
    expect(conforms(replayWithoutRepeating.judge({ kind: 'burst', answers: [answer(200, { id: 'a' }), answer(200, { id: 'a' }), answer(409, { detail: 'in flight' })] }))).toBe(true);
    expect(codes(replayWithoutRepeating.judge({ kind: 'burst', answers: [answer(200, { id: 'a' }), answer(200, { id: 'b' })] }))).toEqual(['idempotency.race']);
    expect(codes(replayWithoutRepeating.judge({ kind: 'burst', answers: [answer(200, { id: 'a' }), answer(500)] }))).toEqual(['idempotency.burst-status']);
  });
});

describe('treatEquivalentBodies (whether re-ordered JSON is the same body is not stated)', () => {
  it('accepts a replay or a 409; reports anything else as a warning', () => {
    expect(conforms(treatEquivalentBodies.judge(answer(200, { id: 'c1' })))).toBe(true);
    expect(conforms(treatEquivalentBodies.judge(answer(409, { detail: 'x' })))).toBe(true);
    expect(severities(treatEquivalentBodies.judge(answer(422, { detail: 'x' })))).toEqual(['idempotency.equivalent-status:warning']);
  });
});

describe('refuseKeyReuse', () => {
  it('accepts 409 {detail}', () => {
    expect(conforms(refuseKeyReuse.judge(answer(409, { detail: 'key reused' })))).toBe(true);
  });
  it('fails a 2xx, a 422 and a 409 without {detail}', () => {
    expect(codes(refuseKeyReuse.judge(answer(200, { id: 'c1' })))).toEqual(['idempotency.conflict-accepted']);
    expect(codes(refuseKeyReuse.judge(answer(422, { detail: 'x' })))).toEqual(['idempotency.conflict-status']);
    expect(codes(refuseKeyReuse.judge(answer(409, { error: 'x' })))).toEqual(['error.partner-shape']);
  });
});

describe('createWithoutKey', () => {
  it('accepts distinct ids (undefined ignored)', () => {
    expect(conforms(createWithoutKey.judge({ ids: ['a', 'b', undefined] }))).toBe(true);
  });
  it('fails a repeated id, or one already known', () => {
    expect(codes(createWithoutKey.judge({ ids: ['a', 'a'] }))).toEqual(['idempotency.deduplicated']);
    expect(codes(createWithoutKey.judge({ ids: ['a'], known: ['a'] }))).toEqual(['idempotency.deduplicated']);
  });
});

describe('acceptCreationWithoutKey', () => {
  it('accepts a 2xx; leaves a 5xx to the creation rule; fails a 4xx refusal', () => {
    expect(conforms(acceptCreationWithoutKey.judge(answer(200, { id: 'c' })))).toBe(true);
    expect(acceptCreationWithoutKey.judge(answer(500)).requirements).toEqual([]);
    expect(codes(acceptCreationWithoutKey.judge(answer(422, { detail: 'Idempotency-Key required' })))).toEqual(['idempotency.key-required']);
  });
});

describe('answerChargeCreation (the answer to a creation, judged in one place)', () => {
  it('decides "200: PIX charge." and, without a key, the optional header', () => {
    expect(answerChargeCreation.judge({ answer: answer(200, { id: 'c' }), withKey: true }).requirements).toEqual(['PT-CHARGE-CREATE-200']);
    expect(answerChargeCreation.judge({ answer: answer(200, { id: 'c' }), withKey: false }).requirements).toEqual(['PT-CHARGE-CREATE-200', 'PT-IDEM-OPTIONAL']);
  });
  it('fails a 201, and a keyless creation refused', () => {
    expect(codes(answerChargeCreation.judge({ answer: answer(201, { id: 'c' }), withKey: false }))).toEqual(['charge.create-status']);
    expect(codes(answerChargeCreation.judge({ answer: answer(422, { detail: 'Idempotency-Key required' }), withKey: false }))).toEqual(['charge.create-status', 'idempotency.key-required']);
  });
});
