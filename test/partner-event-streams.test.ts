/**
 * suites/partner/support.ts: a delivery under a variant of a documented event name is ours and is
 * judged, but an implementation that sends an alias BESIDE the documented event (the contract lists
 * the events it requires, not that no other is sent) is judged on its documented one: counted
 * confirmations and redelivery attempts never mix the two streams.
 */
import { describe, expect, it } from 'vitest';
import type { Delivery } from '../harness/webhooks/types.js';
import { eventMatcher, preferDocumentedType, sameEventStream } from '../suites/partner/support.js';

const REF = 'ptc-test-0123abcd-0123-4567-89ab-0123456789ab';

function delivery(seq: number, type: string, id = `evt_${seq}`): Delivery {
  const json = { id, type, created_at: '2026-01-01T00:00:00Z', data: { amount_cents: 100, e2e_id: null, external_ref: REF } };
  const bodyText = JSON.stringify(json);
  return { seq, path: '/partner', url: '/partner', method: 'POST', headers: {}, receivedAt: 1_000 * seq, answeredStatus: 200, rawBody: Buffer.from(bodyText), bodyText, json };
}

describe('event matching with an alias beside the documented name', () => {
  const paid = eventMatcher(REF, 'business.pix.paid');
  it('still finds a mis-named event when it is the only one', () => {
    const only = [delivery(1, 'BUSINESS_PIX_PAID')].filter(paid);
    expect(preferDocumentedType(only, 'business.pix.paid').map((d) => d.seq)).toEqual([1]);
  });
  it('counts only the documented name when both arrive (one confirmation, not two)', () => {
    const both = [delivery(1, 'pix.paid', 'evt_a'), delivery(2, 'business.pix.paid', 'evt_b')].filter(paid);
    expect(both).toHaveLength(2);
    expect(preferDocumentedType(both, 'business.pix.paid').map((d) => d.seq)).toEqual([2]);
  });
  it('follows one stream of attempts: the alias is another event', () => {
    const created = eventMatcher(REF, 'business.pix.created');
    const first = delivery(1, 'business.pix.created');
    const stream = sameEventStream(first, created);
    expect(stream(delivery(2, 'pix.created'))).toBe(false);
    expect(stream(delivery(3, 'business.pix.created'))).toBe(true);
    expect(eventMatcher(REF, 'business.pix.created', undefined, { exact: true })(delivery(4, 'BUSINESS_PIX_CREATED'))).toBe(false);
  });
});
