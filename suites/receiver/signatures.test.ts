/**
 * What the endpoint does with signatures that do not verify, are missing, cover a re-serialised
 * body, use another digest encoding, or are stale (partner). Judged by harness/rules/receiver/signatures.ts,
 * which quotes each sentence and follows its firmness.
 */
import { PARTNER_TOLERANCE_SECONDS } from '../../harness/webhooks/signatures.js';
import { is2xxStatus, refuseStalePartnerEvents } from '../../harness/rules/receiver/index.js';
import { SCHEMES, duties, receiverCheck } from './support.js';

/** "past 300 s": twice the default tolerance */
const STALE_SECONDS = 2 * PARTNER_TOLERANCE_SECONDS;

for (const scheme of SCHEMES) {
  receiverCheck(scheme, 'an event whose signature does not verify is refused', { id: 'forged', rules: [duties(scheme).refuseForged], severity: 'critical' }, async (r) => {
    // signed with another secret
    const wrongKey = await r.deliverSigned(`${r.paidEvent} signed with another secret`, r.body(r.paidEvent, r.facts()), { wrongSecret: true });
    // a valid signature of another body (the amount changed after signing)
    const facts = r.facts();
    const signedRaw = JSON.stringify(r.body(r.paidEvent, facts));
    const tamperedRaw = JSON.stringify(r.body(r.paidEvent, { ...facts, amount: facts.amount + 100 }));
    const tampered = await r.deliver(`${r.paidEvent} whose amount changed after signing`, tamperedRaw, { [r.header]: r.sign(tamperedRaw, { signedOver: signedRaw }) });
    r.t.judge(r.duties.refuseForged, wrongKey);
    r.t.judge(r.duties.refuseForged, tampered);
  });

  receiverCheck(scheme, 'an event without the signature header', { id: 'unsigned', rules: [duties(scheme).unsigned] }, async (r) => {
    const o = await r.deliver(`${r.paidEvent} without ${r.header}`, JSON.stringify(r.body(r.paidEvent, r.facts())), {});
    r.t.judge(r.duties.unsigned, o);
  });

  receiverCheck(scheme, 'the signature covers the raw body, not a re-serialisation', { id: 'raw-body', rules: [duties(scheme).signatureInput] }, async (r) => {
    // a valid event first: settles the digest case the endpoint verifies (partner: case not stated)
    await r.deliverSigned(r.paidEvent, r.body(r.paidEvent, r.facts()));
    const body = r.body(r.paidEvent, r.facts());
    // same JSON value, other bytes: indented, as a platform may send it
    const raw = JSON.stringify(body, null, 2);
    const exactBytes = await r.deliver(`${r.paidEvent} (indented JSON) signed over its raw bytes`, raw, { [r.header]: r.sign(raw) });
    const reserialized = await r.deliver(`${r.paidEvent} (indented JSON) signed over its compact re-serialisation`, raw, { [r.header]: r.sign(raw, { signedOver: JSON.stringify(body) }) });
    if (scheme === 'gateway') {
      r.t.run.note(`a signature over the compact re-serialisation of an indented body was ${is2xxStatus(reserialized.status) ? 'accepted' : 'refused'} (${reserialized.status}): either reading of "JSON of the payload" is allowed`);
    }
    r.t.judge(r.duties.signatureInput, { exactBytes, reserialized });
  });

  receiverCheck(scheme, 'the digest encoding: lowercase hex verifies', { id: 'digest', rules: [duties(scheme).digestEncoding] }, async (r) => {
    const lowercase = await r.deliverSigned(`${r.paidEvent} with a lowercase hex digest`, r.body(r.paidEvent, r.facts()), { encoding: 'lowercase' });
    const uppercase = await r.deliverSigned(`${r.paidEvent} with an uppercase hex digest`, r.body(r.paidEvent, r.facts()), { encoding: 'uppercase' });
    const base64 = await r.deliverSigned(`${r.paidEvent} with a base64 digest`, r.body(r.paidEvent, r.facts()), { encoding: 'base64' });
    r.t.run.note(`uppercase hex digest ${is2xxStatus(uppercase.status) ? 'accepted' : 'refused'} (${uppercase.status}); base64 digest ${is2xxStatus(base64.status) ? 'accepted' : 'refused'} (${base64.status})`);
    r.t.judge(r.duties.digestEncoding, { lowercase, uppercase });
  });
}

receiverCheck('partner', `an event signed ${STALE_SECONDS} s ago (past the 300 s tolerance)`, { id: 'stale', rules: [refuseStalePartnerEvents] }, async (r) => {
  const timestamp = Math.floor(Date.now() / 1000) - STALE_SECONDS;
  const o = await r.deliverSigned(`business.pix.paid signed with t ${STALE_SECONDS} s old`, r.body('business.pix.paid', r.facts()), { timestamp });
  r.t.judge(refuseStalePartnerEvents, o);
});
