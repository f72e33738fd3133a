/**
 * Partner Idempotency-Key (partner-cashin-api.md, "POST /v1/business/pix-charges" and "Errors"):
 * "Optional header `Idempotency-Key` (recommended). `external_ref` is only a label: resending without
 * the same idempotency key creates a new charge even with the same external_ref."; "same key and same
 * body returns the original response without repeating the effect; same key with a different body
 * gives 409; without the header every call creates a new record."
 */
import type { Exchange } from '../../core/exchange.js';
import { is2xx } from '../../core/json.js';
import { show } from '../judgement.js';
import { judgeStatus } from '../status.js';
import { defineRule } from '../rule.js';
import { fingerprintRelation } from '../fingerprint.js';
import { chargeOf, expectChargeCreated } from './charges.js';
import { answerErrorsWithDetail, judgePartnerError, type ErrorAnswer } from './errors.js';

/**
 * "same key and same body returns the original response without repeating the effect":
 * - `replay`: the same key and body again answers 200 with the original charge (its id), not a new
 *   one;
 * - `equivalent`: the same JSON re-ordered under the same key, whose sameness is not stated
 *   ({@link treatEquivalentBodies}): whatever the answer, no second charge (a new one is wrong under
 *   either reading: a replay, or 409 for another body);
 * - `burst`: concurrent first uses of one key with one body make at most one charge among the 2xx
 *   answers; an in-flight duplicate refused with 409 is a choice the text leaves open (a 429 too).
 */
export const replayWithoutRepeating = defineRule({
  name: 'replayWithoutRepeating',
  requirements: ['PT-IDEM-REPLAY', 'PT-IDEM-NO-REPEAT'],
  codes: { 'idempotency.replay-status': 'failure', 'idempotency.new-record': 'failure', 'idempotency.burst-status': 'failure', 'idempotency.race': 'failure' },
  judge(observation: { kind: 'replay' | 'equivalent'; originalId: string; answer: ErrorAnswer; first?: Exchange } | { kind: 'burst'; answers: readonly ErrorAnswer[] }, v) {
    if (observation.kind === 'burst') {
      v.decides('PT-IDEM-NO-REPEAT');
      const { answers } = observation;
      for (const a of answers) if (a.status !== 409) judgeStatus(v, a.exchange, [200, 409], { unexpected: 'idempotency.burst-status' }, 'one of concurrent creations with one Idempotency-Key');
      const ids = [...new Set(answers.filter((a) => is2xx(a.status)).map((a) => chargeOf(a.json)?.id))];
      if (ids.length <= 1) return;
      return v.find('idempotency.race', { title: 'concurrent creations with one Idempotency-Key created several charges', expected: 'one charge id', actual: `${ids.length} ids: ${show(ids)}`, exchanges: answers.map((a) => a.exchange) });
    }
    const { answer, originalId } = observation;
    if (observation.kind === 'replay' && !judgeStatus(v, answer.exchange, 200, { unexpected: 'idempotency.replay-status' }, 'a replay with the same Idempotency-Key and body')) return;
    if (!is2xx(answer.status)) return v.nothingToJudge();
    if (observation.kind === 'equivalent') v.decides('PT-IDEM-NO-REPEAT');
    const id = chargeOf(answer.json)?.id;
    if (id === originalId) return;
    v.find('idempotency.new-record', { title: 'a replay with the same Idempotency-Key and body did not return the original charge', expected: `the original response: id ${show(originalId)}`, actual: `id ${show(id)} (a second charge)`, exchanges: [observation.first, answer.exchange] });
  },
});

/**
 * "same key and same body": whether the same JSON with another key order or whitespace is the same
 * body is not stated (PT-IDEM-BODY-EQUIVALENCE is ambiguous): a replay (200) or a 409 are both
 * accepted; anything else is reported (a warning, through the catalogue).
 */
export const treatEquivalentBodies = defineRule({
  name: 'treatEquivalentBodies',
  requirements: ['PT-IDEM-BODY-EQUIVALENCE'],
  codes: { 'idempotency.equivalent-status': 'failure' },
  judge(answer: ErrorAnswer, v) {
    judgeStatus(v, answer.exchange, [200, 409], { unexpected: 'idempotency.equivalent-status' }, 'the same JSON re-ordered under the same Idempotency-Key');
  },
});

/**
 * "same key with a different body gives 409" (with `{detail}`): a 2xx fails outright (another
 * record, or the first one under a body it was not created with).
 */
export const refuseKeyReuse = defineRule({
  name: 'refuseKeyReuse',
  requirements: ['PT-IDEM-CONFLICT-409'],
  codes: { 'idempotency.conflict-accepted': 'failure', 'idempotency.conflict-status': 'failure' },
  uses: [answerErrorsWithDetail],
  judge(answer: ErrorAnswer, v) {
    if (is2xx(answer.status)) {
      return v.find('idempotency.conflict-accepted', { title: `a key reused with a different body answered ${answer.status}`, expected: 'HTTP 409 {detail} ("same key with a different body gives 409")', actual: `HTTP ${answer.status}, id ${show(chargeOf(answer.json)?.id)}`, exchanges: [answer.exchange] });
    }
    judgePartnerError(v, answer, 409, { unexpected: 'idempotency.conflict-status' }, 'a key reused with a different body');
  },
});

/**
 * "without the header every call creates a new record" and "`external_ref` is only a label:
 * resending without the same idempotency key creates a new charge even with the same external_ref":
 * the ids of creations without a key are all distinct, and distinct from `known` earlier ones.
 */
export const createWithoutKey = defineRule({
  name: 'createWithoutKey',
  requirements: ['PT-IDEM-ABSENT-NEW', 'PT-CHARGE-EXTREF-LABEL'],
  codes: { 'idempotency.deduplicated': 'failure' },
  judge(observation: { ids: readonly unknown[]; known?: readonly unknown[]; exchanges?: readonly Exchange[] }, v) {
    const got = observation.ids.filter((i) => i !== undefined);
    const seen = new Set<unknown>(observation.known ?? []);
    const repeated = got.find((id) => (seen.has(id) ? true : (seen.add(id), false)));
    if (repeated === undefined) return;
    v.find('idempotency.deduplicated', { title: 'a creation without Idempotency-Key returned an earlier charge', expected: 'a new charge (new id) for every call without the header', actual: `id ${show(repeated)} returned again (ids ${show(got)})`, exchanges: observation.exchanges ?? [] });
  },
});

/**
 * "Optional header `Idempotency-Key` (recommended).": a creation without it is served like any other.
 * A 4xx refusal of a keyless creation breaks it; a 5xx or no answer is the creation's own failure
 * (expectChargeCreated), not evidence that the key is required.
 */
export const acceptCreationWithoutKey = defineRule({
  name: 'acceptCreationWithoutKey',
  requirements: ['PT-IDEM-OPTIONAL'],
  codes: { 'idempotency.key-required': 'failure' },
  judge(answer: ErrorAnswer, v) {
    if (answer.status < 400 || answer.status > 499 || answer.status === 429) return answer.status >= 200 && answer.status <= 299 ? undefined : v.nothingToJudge();
    v.find('idempotency.key-required', { title: `a creation without Idempotency-Key was refused with ${answer.status}`, expected: 'the charge created ("Optional header `Idempotency-Key`")', actual: `HTTP ${answer.status} ${answer.exchange.response?.body.slice(0, 200) ?? ''}`, exchanges: [answer.exchange] });
  },
});

/**
 * The answer to a creation: "200: PIX charge." (expectChargeCreated, charges.ts) and, for a creation
 * sent without the key, "Optional header `Idempotency-Key`" ({@link acceptCreationWithoutKey}). What
 * the charge carries is verifyCreatedCharge's.
 */
export const answerChargeCreation = defineRule({
  name: 'answerChargeCreation',
  requirements: [],
  codes: {},
  uses: [expectChargeCreated, acceptCreationWithoutKey],
  judge(observation: { answer: ErrorAnswer; withKey: boolean }, v) {
    v.apply(expectChargeCreated, observation.answer);
    if (!observation.withKey) v.apply(acceptCreationWithoutKey, observation.answer);
  },
});

export const CHARGE_FINGERPRINT = fingerprintRelation('partner', 'post', '/business/pix-charges', 'partner.idempotency-fingerprint', 'Idempotency fingerprint of POST /v1/business/pix-charges (Idempotency-Key)');

/**
 * One cell of the fingerprint of POST /pix-charges (cells derived from its request schema,
 * harness/rules/fingerprint.ts), tried under a key whose first use created `originalId`:
 * - `conflict` (a field changed alone, an optional one added): "same key with a different body gives
 *   409" ({@link refuseKeyReuse});
 * - `equivalent` (the same JSON re-serialised, `expires_in_seconds` absent versus its default 3600):
 *   whether that is "the same body" is not stated ({@link treatEquivalentBodies}: a replay or 409),
 *   and a second charge is wrong under either reading ({@link replayWithoutRepeating}).
 */
export const honourChargeFingerprint = defineRule({
  name: 'honourChargeFingerprint',
  requirements: [],
  codes: {},
  uses: [refuseKeyReuse, treatEquivalentBodies, replayWithoutRepeating],
  relation: CHARGE_FINGERPRINT.relation,
  judge(observation: { cell: string; expect: 'conflict' | 'equivalent'; originalId: string; answer: ErrorAnswer; first?: Exchange }, v) {
    const { cell, answer } = observation;
    if (!answer.exchange.response) return v.unanswered(answer.exchange);
    v.covers(cell);
    if (observation.expect === 'conflict') {
      v.apply(refuseKeyReuse, answer);
      return;
    }
    v.apply(treatEquivalentBodies, answer);
    v.apply(replayWithoutRepeating, { kind: 'equivalent', originalId: observation.originalId, answer, ...(observation.first !== undefined && { first: observation.first }) });
  },
});
