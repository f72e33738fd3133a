/**
 * Checks over webhook deliveries recorded by the suite's receiver (harness/webhooks/).
 *
 * Gateway (gateway-api.md, "Events"): "Webhooks are HTTP POST callbacks with a JSON body"; callback
 * headers "Content-Type | application/json", "User-Agent | Gateway", "ServiceGateway-Signature |
 * `t=<epoch>,v1=<hmac>`, sent only when the webhook has a signatureSecret"; "`v1` is the lowercase
 * hex HMAC-SHA256 … over the text `<timestamp>.<JSON of the payload>`".
 * Partner (partner-cashin-api.md): "Every state change sends a signed POST to that URL"; signature
 * rules quoted in harness/webhooks/signatures.ts.
 */
import type { Finding, FindingCode, Judgement, Severity } from './finding.js';
import {
  verifyPartnerSignature,
  PARTNER_SIGNATURE_HEADER,
  type SignatureResult,
} from '../webhooks/signatures.js';
import type { Delivery } from '../webhooks/types.js';
import { judge, makeFinding, show, type RuleContext } from './judgement.js';

/** The parts of a recorded delivery these checks read. */
export type ObservedDelivery = Pick<Delivery, 'seq' | 'path' | 'method' | 'headers' | 'rawBody' | 'receivedAt'> & { json?: unknown };

interface Issue {
  code: FindingCode;
  severity: Severity;
  detail: string;
}

function issuesOf(result: SignatureResult): Issue[] {
  const issues: Issue[] = [];
  if (!result.ok) issues.push({ code: result.code ?? 'signature.mismatch', severity: 'failure', detail: result.detail });
  if (result.code !== 'signature.missing-header') {
    for (const check of [result.format.grammar, result.format.v1, result.format.timestamp]) {
      if (!check.ok && !issues.some((i) => i.code === check.code)) {
        issues.push({ code: check.code ?? 'signature.format', severity: check.severity ?? 'failure', detail: check.detail });
      }
    }
  }
  return issues;
}

function foldIssues(ctx: RuleContext, issues: Issue[], title: string, expected: string, where: string): Finding | undefined {
  const failures = issues.filter((i) => i.severity === 'failure');
  const picked = failures.length > 0 ? failures : issues;
  const first = picked[0];
  if (!first) return undefined;
  return makeFinding(ctx, {
    code: first.code,
    title,
    severity: failures.length > 0 ? 'failure' : 'warning',
    expected,
    actual: `${picked.map((i) => i.detail).join('; ')} (${where})`,
  });
}

function where(d: ObservedDelivery): string {
  return `delivery #${d.seq} ${d.method} ${d.path}`;
}

/**
 * Verifies `X-Service-Signature` on a partner delivery: HMAC over `<t>.<raw request body>` only (a
 * match only over re-serialised JSON is a failure), hex of either case, t within `toleranceSeconds`
 * (default 300) of arrival; failures otherwise; warning for a parseable but non-exact header.
 */
function verifyPartnerWebhookSignatureFinding(delivery: ObservedDelivery, secret: string, ctx: RuleContext, options: { toleranceSeconds?: number } = {}): Finding | undefined {
  const input = { header: delivery.headers[PARTNER_SIGNATURE_HEADER], rawBody: delivery.rawBody, secret, receivedAt: delivery.receivedAt };
  const result = verifyPartnerSignature(options.toleranceSeconds === undefined ? input : { ...input, toleranceSeconds: options.toleranceSeconds });
  return foldIssues(
    ctx,
    issuesOf(result),
    'partner webhook signature does not verify as documented',
    `X-Service-Signature: t=<epoch seconds within ${options.toleranceSeconds ?? 300} s>,v1=<hex HMAC-SHA256(endpoint secret, "<t>.<raw request body>")>`,
    where(delivery),
  );
}

/**
 * Verifies the gateway callback headers: `Content-Type: application/json` (parameters such as
 * `charset` tolerated) and `User-Agent: Gateway`. Failures: another content type, a missing or
 * different User-Agent. Warning: a User-Agent that starts with `Gateway` but adds to it
 * (`Gateway/1.2`): the table gives the value, but product tokens with a version are common.
 */
function verifyGatewayCallbackHeadersFinding(delivery: ObservedDelivery, ctx: RuleContext): Finding | undefined {
  const issues: Issue[] = [];
  const contentType = delivery.headers['content-type'];
  if (contentType === undefined || contentType.split(';')[0]?.trim().toLowerCase() !== 'application/json') {
    issues.push({ code: 'webhook.content-type', severity: 'failure', detail: `Content-Type ${show(contentType)}` });
  }
  const ua = delivery.headers['user-agent'];
  if (ua !== 'Gateway') {
    const near = ua !== undefined && /^gateway\b/i.test(ua);
    issues.push({ code: 'webhook.user-agent', severity: near ? 'warning' : 'failure', detail: `User-Agent ${show(ua)}` });
  }
  return foldIssues(ctx, issues, 'gateway callback headers differ from the documented ones', 'Content-Type: application/json and User-Agent: Gateway', where(delivery));
}

/**
 * Verifies that a delivery is an HTTP POST with a JSON body ("HTTP POST callbacks with a JSON
 * body"; partner "sends a signed POST", body `{id, type, created_at, data{…}}`). Failure otherwise.
 */
function verifyWebhookIsJsonPostFinding(delivery: ObservedDelivery, ctx: RuleContext): Finding | undefined {
  const issues: Issue[] = [];
  if (delivery.method !== 'POST') issues.push({ code: 'webhook.method', severity: 'failure', detail: `method ${delivery.method}` });
  let parses = delivery.json !== undefined;
  if (!parses) {
    try {
      JSON.parse(delivery.rawBody.toString('utf8'));
      parses = true;
    } catch {
      parses = false;
    }
  }
  if (!parses) issues.push({ code: 'webhook.body-not-json', severity: 'failure', detail: `body ${show(delivery.rawBody.toString('utf8'), 200)} is not JSON` });
  return foldIssues(ctx, issues, 'webhook delivery is not a POST with a JSON body', 'an HTTP POST whose body is JSON', where(delivery));
}


export function verifyPartnerWebhookSignature(delivery: ObservedDelivery, secret: string, ctx: RuleContext, options: { toleranceSeconds?: number } = {}): Judgement {
  return judge(ctx, verifyPartnerWebhookSignatureFinding(delivery, secret, ctx, options));
}

export function verifyGatewayCallbackHeaders(delivery: ObservedDelivery, ctx: RuleContext): Judgement {
  return judge(ctx, verifyGatewayCallbackHeadersFinding(delivery, ctx));
}

export function verifyWebhookIsJsonPost(delivery: ObservedDelivery, ctx: RuleContext): Judgement {
  return judge(ctx, verifyWebhookIsJsonPostFinding(delivery, ctx));
}
