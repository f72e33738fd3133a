// The webhook delivery rules on recorded deliveries: the partner signature (one rule, filed under the
// partner's requirements), the gateway callback headers and the delivery form of both APIs.
import { describe, expect, it } from 'vitest';
import { partnerDeliverySignature, signPartnerWebhooks, verifyPartnerEventIsJsonPost } from '../harness/rules/partner/index.js';
import { deliverCallbacksAsJsonPosts, sendCallbackHeaders } from '../harness/rules/gateway/callbacks.js';
import type { Delivery } from '../harness/webhooks/types.js';
import { signPartner } from '../harness/webhooks/signatures.js';
import { found } from './harness-fixtures.js';

const T = 1763800000;
const BODY = '{"id": "e1", "event": "transaction_paid"}';

function delivery(headers: Record<string, string>, body = BODY, receivedAt = T * 1000 + 1000): Pick<Delivery, 'seq' | 'path' | 'method' | 'headers' | 'rawBody' | 'receivedAt'> {
  return { seq: 1, path: '/gw/x', method: 'POST', headers, rawBody: Buffer.from(body), receivedAt };
}

describe('signPartnerWebhooks on a recorded delivery', () => {
  const judge = (d: ReturnType<typeof delivery>) => signPartnerWebhooks.judge(partnerDeliverySignature(d, 'p'));
  it('passes a raw-body signature within tolerance', () => {
    expect(found(judge(delivery({ 'x-service-signature': signPartner({ secret: 'p', timestamp: T, body: BODY }) })))).toBeUndefined();
  });
  it('fails a re-serialised signature under the partner requirements; an old timestamp warns without the service clock', () => {
    const compact = JSON.stringify(JSON.parse(BODY));
    const f = found(judge(delivery({ 'x-service-signature': signPartner({ secret: 'p', timestamp: T, body: compact }) })));
    expect(f).toMatchObject({ code: 'partner-signature.reserialized-body', severity: 'failure', requirements: ['PT-WH-RAW-BODY', 'PT-WH-SIGNATURE'] });
    expect(f?.expected).toMatch(/raw request body/);
    const old = delivery({ 'x-service-signature': signPartner({ secret: 'p', timestamp: T, body: BODY }) }, BODY, (T + 600) * 1000);
    expect(found(judge(old))).toMatchObject({ code: 'partner-signature.outside-tolerance', severity: 'warning', requirements: ['PT-WH-TOLERANCE'] });
  });
});

describe('callback headers and shape', () => {
  it('sendCallbackHeaders (gateway)', () => {
    expect(found(sendCallbackHeaders.judge(delivery({ 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Gateway' })))).toBeUndefined();
    expect(found(sendCallbackHeaders.judge(delivery({ 'content-type': 'text/plain', 'user-agent': 'Gateway' })))).toMatchObject({ code: 'callback.content-type', severity: 'failure' });
    expect(found(sendCallbackHeaders.judge(delivery({ 'content-type': 'application/json', 'user-agent': 'axios/1.7' })))).toMatchObject({ code: 'callback.user-agent', severity: 'failure' });
    expect(found(sendCallbackHeaders.judge(delivery({ 'content-type': 'application/json', 'user-agent': 'Gateway/1.2' })))).toMatchObject({ code: 'callback.user-agent-extended', severity: 'warning' });
  });
  it('deliverCallbacksAsJsonPosts (gateway) and verifyPartnerEventIsJsonPost (partner)', () => {
    expect(found(deliverCallbacksAsJsonPosts.judge(delivery({})))).toBeUndefined();
    expect(found(deliverCallbacksAsJsonPosts.judge(delivery({}, 'id=1')))).toMatchObject({ code: 'callback.body-not-json', severity: 'failure' });
    expect(found(deliverCallbacksAsJsonPosts.judge({ ...delivery({}), method: 'PUT' }))?.code).toBe('callback.method');
    const ctx = { requirements: ['PT-WH-STATE-CHANGE' as const] };
    expect(found(verifyPartnerEventIsJsonPost(delivery({}), ctx))).toBeUndefined();
    expect(found(verifyPartnerEventIsJsonPost(delivery({}, 'id=1'), ctx))).toMatchObject({ code: 'webhook.body-not-json', severity: 'failure' });
    expect(found(verifyPartnerEventIsJsonPost({ ...delivery({}), method: 'PUT' }, ctx))?.code).toBe('webhook.method');
  });
});
