/**
 * Partner Idempotency-Key. partner-cashin-api.md "POST /v1/business/pix-charges" and "Errors":
 * "same key and same body returns the original response without repeating the effect; same key
 * with a different body gives 409; without the header every call creates a new record."
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import { CHARGE_FINGERPRINT, createWithoutKey, honourChargeFingerprint, refuseKeyReuse, replayWithoutRepeating, treatEquivalentBodies } from '../../harness/rules/partner/index.js';
import { fingerprintProbe } from '../../harness/rules/fingerprint.js';
import { canonicalJson, idempotencyScenario } from '../../generators/index.js';
import type { PartnerChargeRequest } from '../../harness/http/partner-client.js';
import { chargeBody, createCharge, CREATES_CHARGES, judgeCreated, uniqueRef } from './support.js';

const AREA = 'Idempotency';

/**
 * The generated key made unique: a seeded generator repeats its keys across iterations, shrinks
 * and runs (and the target remembers keys), so a bare generated key could replay an old record.
 */
function freshKey(generated: string | undefined): string {
  return `${generated ?? 'ptc'}-${randomUUID()}`;
}

/** Bodies that differ from each other (unique external_ref per body, amounts generated). */
const bodies = fc.tuple(fc.integer({ min: 1, max: 5_000_000 }), fc.boolean()).map(([amount, withDescription]): PartnerChargeRequest => ({
  amount_cents: amount,
  external_ref: uniqueRef('idem'),
  ...(withDescription ? { description: 'idempotency conformance' } : {}),
}));

// "same key and same body returns the original response without repeating the effect"
check('same Idempotency-Key and same body returns the original charge (same id), creating nothing new', {
  id: 'partner.idempotency.replay',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  rules: [...CREATES_CHARGES, replayWithoutRepeating],
}, async (t) => {
  await t.property('replays', idempotencyScenario(bodies, { kind: 'replay-same-body' }), async (scenario, it) => {
    const client = it.partner();
    const key = freshKey(scenario.key);
    const first = await createCharge(it.run, client, scenario.bodies[0], { idempotencyKey: key });
    if (!first.id) return;
    for (const body of scenario.bodies.slice(1)) {
      const again = await client.createCharge(body, { idempotencyKey: key });
      it.judge(replayWithoutRepeating, { kind: 'replay', originalId: first.id, answer: again, first: first.response.exchange });
    }
  }, { numRuns: 3 });
});

// "same key with a different body gives 409"
check('same Idempotency-Key with a different body answers 409 {detail}', {
  id: 'partner.idempotency.conflict-409',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  rules: [...CREATES_CHARGES, refuseKeyReuse],
}, async (t) => {
  await t.property('different bodies', idempotencyScenario(bodies, { kind: 'same-key-different-body' }), async (scenario, it) => {
    const client = it.partner();
    const [a, b] = scenario.bodies as [PartnerChargeRequest, PartnerChargeRequest];
    const key = freshKey(scenario.key);
    const first = await createCharge(it.run, client, a, { idempotencyKey: key });
    if (!first.id) return;
    // a fingerprint over some fields only must not pass: bodies differing in every field, in
    // external_ref alone, and in description alone ("a different body")
    const variants: PartnerChargeRequest[] = [b, { ...a, external_ref: uniqueRef('idem-other') }, { ...a, description: `${a.description ?? ''} (changed)` }];
    for (const other of variants) {
      it.judge(refuseKeyReuse, await client.createCharge(other, { idempotencyKey: key }));
    }
  }, { numRuns: 3 });
});

// "Whether the same JSON with different key order or whitespace is the same body is not stated"
// (PT-IDEM-BODY-EQUIVALENCE): a replay of the same charge or a 409 are both accepted and noted.
check('same Idempotency-Key with the same JSON re-ordered: a replay or 409, never a second charge', {
  id: 'partner.idempotency.body-equivalence',
  api: 'partner',
  area: AREA,
  severity: 'minor',
  rules: [...CREATES_CHARGES, treatEquivalentBodies, replayWithoutRepeating],
}, async (t) => {
  const client = t.partner();
  const key = `ptc-${randomUUID()}`;
  const body = chargeBody('idem-order');
  const first = await createCharge(t.run, client, body, { idempotencyKey: key });
  if (!first.id) return;
  const reordered = `{ "external_ref": ${JSON.stringify(body.external_ref)},\n  "description": ${JSON.stringify(body.description)}, "amount_cents": ${body.amount_cents} }`;
  const again = await client.createCharge(undefined, { idempotencyKey: key, rawBody: reordered, contentType: 'application/json' });
  t.judge(treatEquivalentBodies, again);
  // a second charge is wrong under either reading of "same body" (replay, or 409 for another body)
  t.judge(replayWithoutRepeating, { kind: 'equivalent', originalId: first.id, answer: again, first: first.response.exchange });
  t.run.note(`re-ordered equivalent JSON under the same key answered ${again.status}${again.status === 200 ? ' (treated as the same body)' : ''}`);
});

// "`external_ref` is only a label: resending without the same idempotency key creates a new charge
// even with the same external_ref"; "without the header every call creates a new record."
check('without Idempotency-Key every creation is a new charge, even with the same external_ref', {
  id: 'partner.idempotency.absent-new',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  rules: [...CREATES_CHARGES, createWithoutKey],
}, async (t) => {
  await t.property('no key', idempotencyScenario(bodies, { kind: 'no-key' }), async (scenario, it) => {
    const ids: unknown[] = [];
    for (const body of scenario.bodies) ids.push((await createCharge(it.run, it.partner(), body)).id);
    it.judge(createWithoutKey, { ids });
  }, { numRuns: 3 });
});

// "same key and same body returns the original response without repeating the effect", under
// concurrency. An in-flight duplicate may fairly be refused (409) or rate limited (429) instead of
// replayed; what must not happen is more than one charge.
check('concurrent creations with one Idempotency-Key make one charge', {
  id: 'partner.idempotency.concurrent',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  rules: [replayWithoutRepeating],
}, async (t) => {
  for (let round = 0; round < 2; round++) {
    const key = `ptc-${randomUUID()}`;
    const body = chargeBody('idem-race');
    const { values } = await t.burst('partner', 6, () => t.partner().createCharge(structuredClone(body), { idempotencyKey: key }));
    t.judge(replayWithoutRepeating, { kind: 'burst', answers: values });
    t.run.note(`round ${round + 1}: statuses ${values.map((v) => v.status).join(', ')} (body ${canonicalJson(body)})`);
  }
});

// "same key with a different body gives 409", for every field of the request schema alone (the
// cells are derived from the spec); where "the same body" is open (re-serialised JSON, a field sent
// with its documented default), a replay or a 409, never a second charge.
check('the Idempotency-Key fingerprint covers every request field: each changed alone under a used key gives 409', {
  id: 'partner.idempotency.fingerprint',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  rules: [...CREATES_CHARGES, honourChargeFingerprint],
}, async (t) => {
  const client = t.partner();
  const amount = 1_000 + Math.floor(Math.random() * 90_000);
  const full: PartnerChargeRequest = { amount_cents: amount, description: 'fingerprint full', external_ref: uniqueRef('fp'), customer_email: 'buyer@example.com', expires_in_seconds: 900 };
  const other = { amount_cents: amount + 1, description: 'fingerprint other', external_ref: uniqueRef('fp-other'), customer_email: 'other.buyer@example.com', expires_in_seconds: 1_800 };
  const minimal: PartnerChargeRequest = { amount_cents: amount };
  const keys = { full: freshKey('fp'), minimal: freshKey('fp-min') };
  const bases = { full, minimal } as const;
  const firsts = await t.all(['full', 'minimal'] as const, (which) => client.createCharge(bases[which], { idempotencyKey: keys[which] }));
  const created = { full: judgeCreated(t.run, firsts[0]!, { idempotencyKey: keys.full }), minimal: judgeCreated(t.run, firsts[1]!, { idempotencyKey: keys.minimal }) };
  const probes = CHARGE_FINGERPRINT.cells.map((cell) => ({ cell, ...fingerprintProbe(cell, { full: { ...full }, other, minimal: { ...minimal } }) }));
  const sent = probes.filter((p) => created[p.on].id !== undefined);
  const answers = await t.all(sent, (p) =>
    p.raw !== undefined ? client.createCharge(undefined, { idempotencyKey: keys[p.on], rawBody: p.raw, contentType: 'application/json' }) : client.createCharge(p.body, { idempotencyKey: keys[p.on] }),
  );
  const chose: string[] = [];
  sent.forEach((p, i) => {
    const answer = answers[i]!;
    const original = created[p.on];
    t.judge(honourChargeFingerprint, { cell: p.cell.cell, expect: p.cell.expect, originalId: original.id!, answer, first: original.response.exchange });
    if (p.cell.expect === 'equivalent') chose.push(`${p.cell.cell}: HTTP ${answer.status}${answer.status === 200 ? ' (treated as the same body)' : answer.status === 409 ? ' (treated as another body)' : ''}`);
  });
  if (chose.length > 0) t.run.note(`where "the same body" is open: ${chose.join('; ')}`);
  const skipped = probes.filter((p) => created[p.on].id === undefined).map((p) => p.cell.cell);
  if (skipped.length > 0) t.run.note(`not tried, the first use of their key created no charge: ${skipped.join(', ')}`);
});
