/**
 * What sits behind the lookups stays within its account and environment. partner-cashin-api.md
 * "What the service does": "Sandbox and production share the same address; the key prefix decides
 * the environment. Their data is independent."; "Errors": "404 | resource not found or belongs to
 * another account"; "Idempotency: same key and same body returns the original response"; "Events":
 * "During the pilot the webhook URL is registered with the integration team".
 *
 * keys-environments.test.ts proves lookups and lists apart; an implementation can still share an
 * idempotency cache keyed by the key alone, a ledger keyed by account or environment only, or a
 * dispatcher that sends every event to the registered URL (issue 15). One flow per boundary serves
 * boundary rule (keepAccountsApart, keepEnvironmentsApart): our charge is created with a key, the other
 * side reuses the key with the same body and creates a charge of its own; ours is paid; their
 * statement must not show our capture and our endpoint must not receive their event.
 */
import { randomUUID } from 'node:crypto';
import { check } from '../../harness/run/check.js';
import type { CheckTools } from '../../harness/run/check.js';
import type { PartnerKeyName } from '../../harness/http/auth.js';
import type { BeyondLookups } from '../../harness/rules/partner/index.js';
import { confirmPendingCharge, expectChargeCreated, keepAccountsApart, keepEnvironmentsApart, returnFinanceStatement } from '../../harness/rules/partner/index.js';
import { chargeBody, createCharge, CREATES_CHARGES, is2xx, isRecord, LOOKS_UP, lookupState, PARTNER_WEBHOOK_PATH, refToken, waitForEvent } from './support.js';

const AREA = 'Keys and environments';

interface Side {
  key: PartnerKeyName;
  /** the boundary crossed: its rule decides how firm each finding is */
  boundary: 'account' | 'environment';
}

async function acrossBoundary(t: CheckTools, side: Side): Promise<void> {
  const ours = t.partner();
  const theirs = t.partner(side.key);
  const judgeBoundary = (observation: BeyondLookups): boolean => (side.boundary === 'account' ? t.judge(keepAccountsApart, observation) : t.judge(keepEnvironmentsApart, observation));
  const key = `ptc-${randomUUID()}`;
  const body = chargeBody(`iso-${side.key}`);
  const first = await createCharge(t.run, ours, body, { idempotencyKey: key });
  if (!first.id) return;
  const ownBody = chargeBody(`iso-${side.key}-own`);
  const [sameKey, own] = await Promise.all([theirs.createCharge(structuredClone(body), { idempotencyKey: key }), theirs.createCharge(ownBody)]);
  // "Idempotency: same key and same body returns the original response" — within the caller's data
  judgeBoundary({ kind: 'key-reuse', ourChargeId: first.id, answer: sameKey, first: first.response.exchange });
  t.run.note(`the same Idempotency-Key and body sent by the other side answered ${sameKey.status}`);
  t.judge(expectChargeCreated, own);

  const pay = await ours.payCharge(first.id);
  if (t.judge(confirmPendingCharge, { kind: 'pay', answer: pay }) && is2xx(pay)) {
    const [paid, statement] = await Promise.all([lookupState(t.run, ours, first.id), theirs.getFinance()]);
    if (t.judge(returnFinanceStatement, statement) && is2xx(statement)) {
      judgeBoundary({ kind: 'postings', statement: statement.json, ours: { id: first.id, e2eId: paid.charge?.e2e_id }, exchanges: [pay.exchange, statement.exchange] });
    }
  }

  // their charge was created before ours was paid: once our paid event is in, theirs would be too
  const secret = t.target.partner?.webhookSecret;
  const ownRef = ownBody.external_ref;
  if (secret && process.env['PAYGATE_RECEIVER_URL'] && is2xx(own) && ownRef !== undefined && is2xx(pay)) {
    const receiver = t.receiver();
    await waitForEvent(receiver, body.external_ref!, 'business.pix.paid');
    const deliveries = await receiver.deliveries({ path: PARTNER_WEBHOOK_PATH });
    judgeBoundary({ kind: 'deliveries', deliveries, token: refToken(ownRef), secret, exchanges: [own.exchange] });
  }

  // leave nothing pending in production
  if (side.key === 'live') {
    const created = [own, sameKey].map((r) => (is2xx(r) && isRecord(r.json) ? r.json.id : undefined)).filter((id): id is string => typeof id === 'string' && id !== first.id);
    await Promise.all(created.map((id) => theirs.cancelCharge(id)));
  }
}

check('another account shares no idempotency key, ledger posting or webhook delivery with us', {
  id: 'partner.isolation.other-account',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  needs: ['partner.other'],
  rules: [...CREATES_CHARGES, ...LOOKS_UP, confirmPendingCharge, returnFinanceStatement, keepAccountsApart],
}, async (t) => {
  // our endpoint is registered for our account: another account's event signed with our secret fails
  await acrossBoundary(t, { key: 'other', boundary: 'account' });
});

check('production shares no idempotency key, ledger posting or webhook delivery with the sandbox', {
  id: 'partner.isolation.production',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  needs: ['partner.live'],
  rules: [...CREATES_CHARGES, ...LOOKS_UP, confirmPendingCharge, returnFinanceStatement, keepEnvironmentsApart],
}, async (t) => {
  // whether one URL was registered for both environments is not stated: a production event at our
  // sandbox endpoint only warns
  await acrossBoundary(t, { key: 'live', boundary: 'environment' });
});
