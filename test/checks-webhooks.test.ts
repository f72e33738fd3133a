import type { RuleContext } from '../harness/rules/judgement.js';
import { found } from './harness-fixtures.js';
import { describe, expect, it } from 'vitest';
import {
  verifyGatewayCallbackHeaders,
  verifyPartnerWebhookSignature,
  verifyWebhookIsJsonPost,
  type ObservedDelivery,
} from '../harness/rules/webhooks.js';
import { signPartner } from '../harness/webhooks/signatures.js';

const ctx: RuleContext = { requirements: ['GW-WH-SIGNATURE-HMAC'] };
const T = 1763800000;
const BODY = '{"id": "e1", "event": "transaction_paid"}';

function delivery(headers: Record<string, string>, body = BODY, receivedAt = T * 1000 + 1000): ObservedDelivery {
  return { seq: 1, path: '/gw/x', method: 'POST', headers, rawBody: Buffer.from(body), receivedAt };
}

// the gateway signature rule is harness/rules/gateway/webhooks.ts verifyGatewayDeliverySignature (test/rules-gateway-webhooks.test.ts)
describe('verifyPartnerWebhookSignature', () => {
  it('passes a raw-body signature within tolerance', () => {
    expect(found(verifyPartnerWebhookSignature(delivery({ 'x-service-signature': signPartner({ secret: 'p', timestamp: T, body: BODY }) }), 'p', ctx))).toBeUndefined();
  });
  it('fails a re-serialised signature and an old timestamp', () => {
    const compact = JSON.stringify(JSON.parse(BODY));
    const f = found(verifyPartnerWebhookSignature(delivery({ 'x-service-signature': signPartner({ secret: 'p', timestamp: T, body: compact }) }), 'p', ctx));
    expect(f).toMatchObject({ code: 'signature.reserialized-body', severity: 'failure' });
    expect(f?.actual).toMatch(/raw request body/);
    const old = delivery({ 'x-service-signature': signPartner({ secret: 'p', timestamp: T, body: BODY }) }, BODY, (T + 600) * 1000);
    expect(found(verifyPartnerWebhookSignature(old, 'p', ctx))).toMatchObject({ code: 'signature.timestamp-outside-tolerance', severity: 'failure' });
    expect(found(verifyPartnerWebhookSignature(old, 'p', ctx, { toleranceSeconds: 900 }))).toBeUndefined();
  });
});

describe('callback headers and shape', () => {
  it('verifyGatewayCallbackHeaders', () => {
    expect(found(verifyGatewayCallbackHeaders(delivery({ 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Gateway' }), ctx))).toBeUndefined();
    expect(found(verifyGatewayCallbackHeaders(delivery({ 'content-type': 'text/plain', 'user-agent': 'Gateway' }), ctx))).toMatchObject({ code: 'webhook.content-type', severity: 'failure' });
    expect(found(verifyGatewayCallbackHeaders(delivery({ 'content-type': 'application/json', 'user-agent': 'axios/1.7' }), ctx))).toMatchObject({ code: 'webhook.user-agent', severity: 'failure' });
    expect(found(verifyGatewayCallbackHeaders(delivery({ 'content-type': 'application/json', 'user-agent': 'Gateway/1.2' }), ctx))).toMatchObject({ code: 'webhook.user-agent', severity: 'warning' });
  });
  it('verifyWebhookIsJsonPost', () => {
    expect(found(verifyWebhookIsJsonPost(delivery({}), ctx))).toBeUndefined();
    expect(found(verifyWebhookIsJsonPost(delivery({}, 'id=1'), ctx))).toMatchObject({ code: 'webhook.body-not-json', severity: 'failure' });
    expect(found(verifyWebhookIsJsonPost({ ...delivery({}), method: 'PUT' }, ctx))?.code).toBe('webhook.method');
  });
});
