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
 * the three rules (harness/rules/partner/isolation.ts): our charge is created with a key, the other
 * side reuses the key with the same body and creates a charge of its own; ours is paid; their
 * statement must not show our capture and our endpoint must not receive their event.
 */
import { randomUUID } from 'node:crypto';
import { check } from '../../harness/run/check.js';
import type { CheckTools } from '../../harness/run/check.js';
import type { PartnerKeyName } from '../../harness/http/auth.js';
import type { RequirementId } from '../../harness/rules/finding.js';
import { ensureIdempotencyKeyScoped, ensureNoForeignDelivery, ensureNoForeignPosting } from '../../harness/rules/partner/isolation.js';
import { chargeBody, createCharge, is2xx, isRecord, lookupState, PARTNER_WEBHOOK_PATH, refToken, status, waitForEvent } from './support.js';

const AREA = 'Keys and environments';

interface Side {
  key: PartnerKeyName;
  whose: string;
  requirement: RequirementId;
  /** which boundary is crossed (the rule decides how firm the delivery finding is) */
  crossing: 'account' | 'environment';
}

async function acrossBoundary(t: CheckTools, side: Side): Promise<void> {
  const ours = t.partner();
  const theirs = t.partner(side.key);
  const requirements = [side.requirement];
  const key = `ptc-${randomUUID()}`;
  const body = chargeBody(`iso-${side.key}`);
  const first = await createCharge(t.run, ours, body, { idempotencyKey: key });
  if (!first.id) return;
  const ownBody = chargeBody(`iso-${side.key}-own`);
  const [sameKey, own] = await Promise.all([theirs.createCharge(structuredClone(body), { idempotencyKey: key }), theirs.createCharge(ownBody)]);
  // "Idempotency: same key and same body returns the original response" — within the caller's data
  t.run.record(ensureIdempotencyKeyScoped(first.id, sameKey, { requirements, whose: side.whose, exchanges: [first.response.exchange, sameKey.exchange] }));
  t.run.note(`the same Idempotency-Key and body sent by ${side.whose} answered ${sameKey.status}`);
  status(t.run, own, 200, ['PT-CHARGE-CREATE-200']);

  const pay = await ours.payCharge(first.id);
  if (status(t.run, pay, '2xx', ['PT-CHARGE-PAY-CONFIRMS'])) {
    const [paid, statement] = await Promise.all([lookupState(t.run, ours, first.id), theirs.getFinance()]);
    if (status(t.run, statement, '2xx', ['PT-FIN-GET'])) {
      t.run.record(ensureNoForeignPosting(statement.json, { id: first.id, e2eId: paid.charge?.e2e_id }, { requirements, whose: side.whose, exchanges: [pay.exchange, statement.exchange] }));
    }
  }

  // their charge was created before ours was paid: once our paid event is in, theirs would be too
  const secret = t.target.partner?.webhookSecret;
  const ownRef = ownBody.external_ref;
  if (secret && process.env['PAYGATE_RECEIVER_URL'] && is2xx(own) && ownRef !== undefined && is2xx(pay)) {
    const receiver = t.receiver();
    await waitForEvent(receiver, body.external_ref!, 'business.pix.paid');
    const deliveries = await receiver.deliveries({ path: PARTNER_WEBHOOK_PATH });
    t.run.record(ensureNoForeignDelivery(deliveries, { token: refToken(ownRef) }, { requirements, whose: side.whose, secret, crossing: side.crossing, exchanges: [own.exchange] }));
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
  requirements: ['PT-ERR-404-OTHER-ACCOUNT'],
}, async (t) => {
  // our endpoint is registered for our account: another account's event signed with our secret fails
  await acrossBoundary(t, { key: 'other', whose: 'another account', requirement: 'PT-ERR-404-OTHER-ACCOUNT', crossing: 'account' });
});

check('production shares no idempotency key, ledger posting or webhook delivery with the sandbox', {
  id: 'partner.isolation.production',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  needs: ['partner.live'],
  requirements: ['PT-ENV-ISOLATION'],
}, async (t) => {
  // whether one URL was registered for both environments is not stated: a production event at our
  // sandbox endpoint only warns
  await acrossBoundary(t, { key: 'live', whose: 'production', requirement: 'PT-ENV-ISOLATION', crossing: 'environment' });
});
