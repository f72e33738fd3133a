/**
 * The idempotency fingerprint of `POST /api/v1/pix/out/pixkey` (gateway-api.md): "Resending with the
 * same key and body returns the original response and never duplicates the transfer. The same key
 * with a different body gives 409 (`IDEMPOTENCY_CONFLICT`)." Its cells are derived from the request
 * schema (harness/rules/fingerprint.ts): every field changed alone, every optional one added, and the
 * bodies whose sameness the text leaves open (re-serialised JSON, `currency` absent versus its
 * default `BRL`).
 */
import { is2xx } from '../../core/json.js';
import { defineRule } from '../rule.js';
import { fingerprintRelation } from '../fingerprint.js';
import type { Answer } from './fields.js';
import { honourIdempotencyKey, honourTransferRequest, refuseKeyReuseWithOtherBody } from './pix-transfers.js';

export const TRANSFER_FINGERPRINT = fingerprintRelation('gateway', 'post', '/api/v1/pix/out/pixkey', 'gateway.idempotency-fingerprint', 'Idempotency fingerprint of POST /api/v1/pix/out/pixkey (x-idempotency-key)');

/**
 * One cell of the fingerprint, tried under a key whose first use created `original`:
 * - `conflict` (a field changed or added): "409 (`IDEMPOTENCY_CONFLICT`)" ({@link refuseKeyReuseWithOtherBody});
 * - `equivalent` (the same JSON re-serialised, or `currency` absent versus `BRL`): whether that is
 *   "the same body" is not stated: a replay (the original response, {@link honourIdempotencyKey}) or
 *   a 409 are both accepted (the suite notes which); a new transfer is wrong under either reading,
 *   and refusing the valid body as invalid (400/422, a 5xx) is judged as the creation it is.
 */
export const honourTransferFingerprint = defineRule({
  name: 'honourTransferFingerprint',
  requirements: [],
  codes: {},
  uses: [refuseKeyReuseWithOtherBody, honourIdempotencyKey, honourTransferRequest],
  relation: TRANSFER_FINGERPRINT.relation,
  judge(observation: { cell: string; expect: 'conflict' | 'equivalent'; body: object; original: Answer; originalId: string; answer: Answer }, v) {
    const { cell, answer, original, originalId } = observation;
    if (!answer.exchange.response) return v.unanswered(answer.exchange);
    v.covers(cell);
    if (observation.expect === 'conflict') {
      v.apply(refuseKeyReuseWithOtherBody, { answer, originalId, what: `only ${cell}` });
      return;
    }
    if (is2xx(answer.status)) v.apply(honourIdempotencyKey, { case: 'replay', original, replay: answer });
    else if (answer.status !== 409 && answer.status !== 429) v.apply(honourTransferRequest, { case: 'valid', body: observation.body, answer });
  },
});
