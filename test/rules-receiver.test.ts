// harness/rules/receiver/*: every rule with an observation it accepts and one it rejects, including
// the edges of its latitude (warning vs failure by scheme, timeouts, read-back counts), and what the
// signature facts of the delivery make of it.
import { describe, expect, it } from 'vitest';
import type { Judgement } from '../harness/rules/finding.js';
import { RECEIVER_DUTIES, refuseStalePartnerEvents } from '../harness/rules/receiver/index.js';
import type { DeliveryObservation, ReceiverScheme } from '../harness/rules/receiver/index.js';
import { readSignature, signPartner } from '../harness/webhooks/signatures.js';

const answer = (status: number, durationMs = 5, error?: string): DeliveryObservation => ({ label: 'test delivery', status, durationMs, ...(error !== undefined && { error }) });
const severities = (j: Judgement): string[] => j.findings.map((f) => f.severity);
const codes = (j: Judgement): string[] => j.findings.map((f) => f.code);
const duty = (scheme: ReceiverScheme) => RECEIVER_DUTIES[scheme];

const SECRET = 'whsec_r';
const BODY = { id: 'evt_1', type: 'business.pix.paid', data: { amount_cents: 100 } };
const RAW = JSON.stringify(BODY);
const T = 1_763_805_600;
/** An answer to a delivery of `raw` signed with `header`, with the facts the suite reads of it. */
const signedAnswer = (status: number, header: string | undefined, raw = RAW, sentAt = (T + 1) * 1000): DeliveryObservation => ({ ...answer(status), signature: readSignature({ header, rawBody: raw, secret: SECRET }), sentAt });

describe('acknowledgement', () => {
  it("accepts any 2xx and decides the scheme's requirement", () => {
    for (const status of [200, 201, 202, 204]) expect(duty('partner').acknowledge.judge(answer(status)).findings).toEqual([]);
    expect(duty('gateway').acknowledge.judge(answer(200)).requirements).toEqual(['GW-RCV-ACK-2XX']);
    expect(duty('partner').acknowledge.judge(answer(200)).requirements).toEqual(['PT-RCV-ACK-2XX']);
  });
  it('fails a refusal, a 5xx and a refused connection', () => {
    for (const o of [answer(401), answer(409), answer(500), answer(0, 1, 'ECONNREFUSED')]) {
      const j = duty('gateway').acknowledge.judge(o);
      expect(severities(j)).toEqual(['failure']);
      expect(j.findings[0]?.requirements).toEqual(['GW-RCV-ACK-2XX']);
    }
  });
  it('leaves a gateway timeout to the "quickly" rule (delivery timeout not shown); a partner timeout fails', () => {
    expect(duty('gateway').acknowledge.judge(answer(0, 15_000, 'timeout after 15000 ms')).findings).toEqual([]);
    expect(severities(duty('partner').acknowledge.judge(answer(0, 10_500, 'timeout after 10500 ms')))).toEqual(['failure']);
  });
});

describe('answered quickly', () => {
  it('accepts an answer within the 2 s bound', () => {
    expect(duty('gateway').answerQuickly.judge(answer(200, 1999)).findings).toEqual([]);
    expect(duty('partner').answerQuickly.judge(answer(200, 1999)).requirements).toEqual(['PT-RCV-ACK-QUICK']);
  });
  it('warns past the bound ("quickly" is not a number)', () => {
    expect(severities(duty('gateway').answerQuickly.judge(answer(200, 2500)))).toEqual(['warning']);
    expect(severities(duty('partner').answerQuickly.judge(answer(200, 9_000)))).toEqual(['warning']);
    expect(severities(duty('gateway').answerQuickly.judge(answer(0, 15_000, 'timeout after 15000 ms')))).toEqual(['warning']);
  });
  it('fails a partner answer past the 10 s call timeout, or none within it', () => {
    expect(codes(duty('partner').answerQuickly.judge(answer(200, 10_200)))).toEqual(['partner-receiver.timeout']);
    expect(severities(duty('partner').answerQuickly.judge(answer(0, 10_500, 'timeout after 10500 ms')))).toEqual(['failure']);
  });
  it('says nothing about a refused connection (not a matter of speed)', () => {
    expect(duty('partner').answerQuickly.judge(answer(0, 1, 'ECONNREFUSED')).findings).toEqual([]);
  });
});

describe('forged events', () => {
  const forged = (status: number) => signedAnswer(status, signPartner({ secret: 'not-the-secret', timestamp: T, body: RAW }));
  it('accepts any refusal', () => {
    for (const status of [400, 401, 403, 500]) expect(duty('gateway').refuseForged.judge(forged(status)).findings).toEqual([]);
  });
  it('fails an accepted forgery on both schemes', () => {
    expect(severities(duty('gateway').refuseForged.judge(forged(200)))).toEqual(['failure']);
    const j = duty('partner').refuseForged.judge(forged(204));
    expect(j.findings[0]?.requirements).toEqual(['PT-RCV-VERIFY-SIGNATURE']);
  });
  it('decides nothing on a delivery whose signature does verify (not a forgery)', () => {
    expect(duty('partner').refuseForged.judge(signedAnswer(200, signPartner({ secret: SECRET, timestamp: T, body: RAW })))).toEqual({ rule: 'refuseForgedPartnerEvents', requirements: [], findings: [] });
  });
});

describe('unsigned events', () => {
  it('accepts a refusal', () => {
    expect(duty('partner').unsigned.judge(signedAnswer(401, undefined)).findings).toEqual([]);
  });
  it('partner: accepting an unsigned event fails ("Every state change sends a signed POST")', () => {
    const j = duty('partner').unsigned.judge(signedAnswer(200, undefined));
    expect(severities(j)).toEqual(['failure']);
    expect(j.requirements).toEqual(['PT-RCV-REQUIRE-SIGNATURE']);
  });
  it('gateway: accepting one is only a warning (postbackUrl deliveries are unsigned)', () => {
    expect(severities(duty('gateway').unsigned.judge(signedAnswer(200, undefined)))).toEqual(['warning']);
  });
  it('decides nothing on a signed delivery', () => {
    expect(duty('gateway').unsigned.judge(signedAnswer(200, signPartner({ secret: SECRET, timestamp: T, body: RAW }))).requirements).toEqual([]);
  });
});

describe('what the signature covers', () => {
  const pretty = JSON.stringify(BODY, null, 2);
  const exact = (status: number) => signedAnswer(status, signPartner({ secret: SECRET, timestamp: T, body: pretty }), pretty);
  const reserialized = (status: number) => signedAnswer(status, signPartner({ secret: SECRET, timestamp: T, body: RAW }), pretty);
  it('accepts an endpoint that verifies the raw bytes', () => {
    expect(duty('partner').signatureInput.judge({ exactBytes: exact(200), reserialized: reserialized(401) }).findings).toEqual([]);
  });
  it('partner: fails both symptoms of verifying a re-serialisation', () => {
    const j = duty('partner').signatureInput.judge({ exactBytes: exact(401), reserialized: reserialized(200) });
    expect(codes(j).sort()).toEqual(['partner-receiver.accepted-reserialized', 'partner-receiver.rejected-exact-body']);
    expect(severities(j)).toEqual(['failure', 'failure']);
  });
  it('gateway: "JSON of the payload" is ambiguous: a refused exact body warns, an accepted re-serialisation is allowed', () => {
    expect(severities(duty('gateway').signatureInput.judge({ exactBytes: exact(401), reserialized: reserialized(200) }))).toEqual(['warning']);
    expect(duty('gateway').signatureInput.judge({ exactBytes: exact(200), reserialized: reserialized(200) }).findings).toEqual([]);
  });
  it('decides nothing when the deliveries are not the pair (both signed over the raw bytes)', () => {
    expect(duty('partner').signatureInput.judge({ exactBytes: exact(401), reserialized: exact(200) }).requirements).toEqual([]);
  });
});

describe('the digest encoding', () => {
  const lower = (status: number) => signedAnswer(status, signPartner({ secret: SECRET, timestamp: T, body: RAW }));
  const upper = (status: number) => signedAnswer(status, signPartner({ secret: SECRET, timestamp: T, body: RAW, uppercase: true }));
  it('accepts lowercase hex, whatever the endpoint does with uppercase', () => {
    expect(duty('gateway').digestEncoding.judge({ lowercase: lower(200), uppercase: upper(401) }).findings).toEqual([]);
    expect(duty('partner').digestEncoding.judge({ lowercase: lower(200), uppercase: upper(200) }).findings).toEqual([]);
  });
  it('gateway: a refused lowercase hex digest fails ("lowercase hex" is stated)', () => {
    const j = duty('gateway').digestEncoding.judge({ lowercase: lower(401), uppercase: upper(200) });
    expect(severities(j)).toEqual(['failure']);
    expect(j.requirements).toEqual(['GW-RCV-DIGEST-HEX']);
  });
  it('partner: one case refused while the other is accepted warns (case not stated)', () => {
    expect(severities(duty('partner').digestEncoding.judge({ lowercase: lower(401), uppercase: upper(200) }))).toEqual(['warning']);
    expect(severities(duty('partner').digestEncoding.judge({ lowercase: lower(200), uppercase: upper(401) }))).toEqual(['warning']);
  });
  it('decides nothing when the "uppercase" delivery is not in uppercase', () => {
    expect(duty('gateway').digestEncoding.judge({ lowercase: lower(401), uppercase: lower(200) }).requirements).toEqual([]);
  });
});

describe('stale timestamps (partner)', () => {
  const stale = (status: number, ageS = 600) => signedAnswer(status, signPartner({ secret: SECRET, timestamp: T, body: RAW }), RAW, (T + ageS) * 1000);
  it('accepts a refusal of a stale t', () => {
    expect(refuseStalePartnerEvents.judge(stale(401)).findings).toEqual([]);
  });
  it('warns when a stale t is accepted (300 s is "the default")', () => {
    const j = refuseStalePartnerEvents.judge(stale(200));
    expect(severities(j)).toEqual(['warning']);
    expect(j.requirements).toEqual(['PT-RCV-TOLERANCE']);
  });
  it('decides nothing on a t within the tolerance', () => {
    expect(refuseStalePartnerEvents.judge(stale(200, 200)).requirements).toEqual([]);
  });
});

describe('processed once', () => {
  const obs = (count: number, sameBy: 'event-id' | 'end-to-end-id' = 'event-id') => ({ label: 'dup', sameBy, eventIds: ['e1'], count });
  it('accepts once (and zero: nothing was processed twice)', () => {
    expect(duty('gateway').processedOnce.judge(obs(1)).findings).toEqual([]);
    expect(duty('partner').processedOnce.judge(obs(0)).findings).toEqual([]);
  });
  it('fails the same event id processed twice, on both schemes', () => {
    expect(severities(duty('gateway').processedOnce.judge(obs(2)))).toEqual(['failure']);
    expect(duty('gateway').processedOnce.judge(obs(2)).requirements).toEqual(['GW-RCV-IDEMPOTENT-EVENT-ID']);
    expect(duty('partner').processedOnce.judge(obs(8)).findings[0]?.requirements).toEqual(['PT-RCV-IDEMPOTENT-CREDIT']);
  });
  it("one end-to-end id under two event ids: partner fails, gateway warns (the key is the receiver's choice)", () => {
    expect(severities(duty('partner').processedOnce.judge(obs(2, 'end-to-end-id')))).toEqual(['failure']);
    const gw = duty('gateway').processedOnce.judge(obs(2, 'end-to-end-id'));
    expect(severities(gw)).toEqual(['warning']);
    expect(gw.requirements).toEqual(['GW-RCV-IDEMPOTENT-E2E']);
  });
});

describe('paid events processed', () => {
  it('accepts a paid event reported processed', () => {
    expect(duty('gateway').paidProcessed.judge({ label: 'paid', eventId: 'e1', count: 1, waitedMs: 100 }).findings).toEqual([]);
  });
  it('warns when it never shows, or shows with count 0 (asynchronous; order not stated)', () => {
    expect(severities(duty('partner').paidProcessed.judge({ label: 'paid', eventId: 'e1', count: undefined, waitedMs: 5000 }))).toEqual(['warning']);
    expect(duty('gateway').paidProcessed.judge({ label: 'paid', eventId: 'e1', count: 0, waitedMs: 5000 }).requirements).toEqual(['GW-RCV-PAID-PROCESSED']);
  });
});

describe('payload rules', () => {
  it('extra fields: 2xx accepted, a refusal fails', () => {
    expect(duty('gateway').acceptExtraFields.judge(answer(200)).findings).toEqual([]);
    expect(severities(duty('partner').acceptExtraFields.judge(answer(422)))).toEqual(['failure']);
  });
  it('large body: 2xx accepted, a 413 warns (no size is stated)', () => {
    expect(duty('partner').acceptLargeBodies.judge({ ...answer(200), bytes: 262_144 }).findings).toEqual([]);
    const j = duty('gateway').acceptLargeBodies.judge({ ...answer(413), bytes: 262_144 });
    expect(severities(j)).toEqual(['warning']);
    expect(j.requirements).toEqual(['GW-RCV-BODY-SIZE']);
  });
});

describe('the duties of each scheme', () => {
  it('name only that scheme\'s requirements', () => {
    for (const scheme of ['gateway', 'partner'] as const) {
      const prefix = scheme === 'gateway' ? 'GW-RCV-' : 'PT-RCV-';
      for (const rule of Object.values(RECEIVER_DUTIES[scheme])) for (const id of rule.requirements) expect(id.startsWith(prefix), `${rule.name}: ${id}`).toBe(true);
    }
  });
});
