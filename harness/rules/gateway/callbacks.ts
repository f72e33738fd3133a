/**
 * What a gateway callback is on the wire (gateway-api.md, "Events": "Webhooks are HTTP POST
 * callbacks with a JSON body"; "Callback headers": "Content-Type | application/json", "User-Agent |
 * Gateway"). The signature header is judged by harness/rules/gateway/signature.ts; the payload by
 * harness/rules/gateway/webhooks.ts.
 */
import type { Delivery } from '../../webhooks/types.js';
import { parsesAsJson } from '../../webhooks/delivery-facts.js';
import { defineRule } from '../rule.js';
import { show } from '../judgement.js';

/** The parts of a recorded delivery these rules read. */
export type GatewayCallback = Pick<Delivery, 'seq' | 'path' | 'method' | 'headers' | 'rawBody'> & { json?: unknown };

function where(d: Pick<Delivery, 'seq' | 'path'>): string {
  return `delivery #${d.seq} to ${d.path}`;
}

/**
 * "Webhooks are HTTP POST callbacks with a JSON body": another method, or a body that does not
 * parse as JSON, is a failure.
 */
export const deliverCallbacksAsJsonPosts = defineRule({
  name: 'deliverCallbacksAsJsonPosts',
  requirements: ['GW-EVT-HTTP-POST-JSON'],
  codes: { 'callback.method': 'failure', 'callback.body-not-json': 'failure' },
  judge(d: GatewayCallback, v) {
    if (d.method !== 'POST') {
      v.find('callback.method', { title: 'a webhook callback is not an HTTP POST', expected: 'an HTTP POST', actual: `method ${d.method} (${where(d)})` });
    }
    if (!parsesAsJson(d)) {
      v.find('callback.body-not-json', { title: 'a webhook callback body is not JSON', expected: 'a JSON body', actual: `body ${show(d.rawBody.toString('utf8'), 200)} (${where(d)})` });
    }
  },
});

/**
 * The "Callback headers" table: `Content-Type: application/json` (parameters such as `charset`
 * tolerated: GW-WH-CONTENT-TYPE's ambiguity) and `User-Agent: Gateway`. Failures: another content
 * type, a missing or different User-Agent. Warning: a User-Agent that starts with `Gateway` but adds
 * to it (`Gateway/1.2`): the table gives the value, but product tokens with a version are common.
 */
export const sendCallbackHeaders = defineRule({
  name: 'sendCallbackHeaders',
  requirements: ['GW-WH-CONTENT-TYPE', 'GW-WH-USER-AGENT'],
  codes: { 'callback.content-type': 'failure', 'callback.user-agent': 'failure', 'callback.user-agent-extended': 'warning' },
  judge(d: GatewayCallback, v) {
    const contentType = d.headers['content-type'];
    if (contentType === undefined || contentType.split(';')[0]?.trim().toLowerCase() !== 'application/json') {
      v.find('callback.content-type', { title: 'a webhook callback is not labelled application/json', expected: 'Content-Type: application/json', actual: `Content-Type ${show(contentType)} (${where(d)})`, requirements: ['GW-WH-CONTENT-TYPE'] });
    }
    const ua = d.headers['user-agent'];
    if (ua === 'Gateway') return;
    const extended = ua !== undefined && /^gateway\b/i.test(ua);
    v.find(extended ? 'callback.user-agent-extended' : 'callback.user-agent', {
      title: extended ? 'the callback User-Agent adds to "Gateway"' : 'the callback User-Agent is not "Gateway"',
      expected: 'User-Agent: Gateway',
      actual: `User-Agent ${show(ua)} (${where(d)})`,
      requirements: ['GW-WH-USER-AGENT'],
    });
  },
});
