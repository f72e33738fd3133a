// harness/rules/receiver/*: every rule with an observation it accepts and one it rejects, including
// the edges of its latitude (warning vs failure by scheme, timeouts, read-back counts).
import { describe, expect, it } from 'vitest';
import type { Judgement } from '../harness/rules/finding.js';
import {
  ensureAcknowledged,
  ensureExtraFieldsAccepted,
  ensureForgeryRefused,
  judgeAnsweredQuickly,
  judgeDigestEncoding,
  judgeLargeBodyAccepted,
  judgePaidProcessed,
  judgeProcessedOnce,
  judgeSignatureInput,
  judgeStaleTimestamp,
  judgeUnsignedDelivery,
} from '../harness/rules/receiver/index.js';
import type { DeliveryObservation } from '../harness/rules/receiver/index.js';

const answer = (status: number, durationMs = 5, error?: string): DeliveryObservation => ({ label: 'test delivery', status, durationMs, ...(error !== undefined && { error }) });
const severities = (j: Judgement): string[] => j.findings.map((f) => f.severity);
const codes = (j: Judgement): string[] => j.findings.map((f) => f.code);

describe('ensureAcknowledged', () => {
  it('accepts any 2xx and decides the scheme\'s requirement', () => {
    for (const status of [200, 201, 202, 204]) expect(ensureAcknowledged(answer(status), 'partner').findings).toEqual([]);
    expect(ensureAcknowledged(answer(200), 'gateway').requirements).toEqual(['GW-RCV-ACK-2XX']);
    expect(ensureAcknowledged(answer(200), 'partner').requirements).toEqual(['PT-RCV-ACK-2XX']);
  });
  it('fails a refusal, a 5xx and a refused connection', () => {
    for (const o of [answer(401), answer(409), answer(500), answer(0, 1, 'ECONNREFUSED')]) {
      const j = ensureAcknowledged(o, 'gateway');
      expect(severities(j)).toEqual(['failure']);
      expect(j.findings[0]?.requirements).toEqual(['GW-RCV-ACK-2XX']);
    }
  });
  it('leaves a gateway timeout to the "quickly" rule (delivery timeout not shown); a partner timeout fails', () => {
    expect(ensureAcknowledged(answer(0, 15_000, 'timeout after 15000 ms'), 'gateway').findings).toEqual([]);
    expect(severities(ensureAcknowledged(answer(0, 10_500, 'timeout after 10500 ms'), 'partner'))).toEqual(['failure']);
  });
});

describe('judgeAnsweredQuickly', () => {
  it('accepts an answer within the 2 s bound', () => {
    expect(judgeAnsweredQuickly(answer(200, 1999), 'gateway').findings).toEqual([]);
    expect(judgeAnsweredQuickly(answer(200, 1999), 'partner').requirements).toEqual(['PT-RCV-ACK-QUICK']);
  });
  it('warns past the bound ("quickly" is not a number)', () => {
    expect(severities(judgeAnsweredQuickly(answer(200, 2500), 'gateway'))).toEqual(['warning']);
    expect(severities(judgeAnsweredQuickly(answer(200, 9_000), 'partner'))).toEqual(['warning']);
    expect(severities(judgeAnsweredQuickly(answer(0, 15_000, 'timeout after 15000 ms'), 'gateway'))).toEqual(['warning']);
  });
  it('fails a partner answer past the 10 s call timeout, or none within it', () => {
    expect(codes(judgeAnsweredQuickly(answer(200, 10_200), 'partner'))).toEqual(['receiver.timeout']);
    expect(severities(judgeAnsweredQuickly(answer(0, 10_500, 'timeout after 10500 ms'), 'partner'))).toEqual(['failure']);
  });
  it('says nothing about a refused connection (not a matter of speed)', () => {
    expect(judgeAnsweredQuickly(answer(0, 1, 'ECONNREFUSED'), 'partner').findings).toEqual([]);
  });
});

describe('ensureForgeryRefused', () => {
  it('accepts any refusal', () => {
    for (const status of [400, 401, 403, 500]) expect(ensureForgeryRefused(answer(status), 'gateway').findings).toEqual([]);
  });
  it('fails an accepted forgery on both schemes', () => {
    expect(severities(ensureForgeryRefused(answer(200), 'gateway'))).toEqual(['failure']);
    const j = ensureForgeryRefused(answer(204), 'partner');
    expect(j.findings[0]?.requirements).toEqual(['PT-RCV-VERIFY-SIGNATURE']);
  });
});

describe('judgeUnsignedDelivery', () => {
  it('accepts a refusal', () => {
    expect(judgeUnsignedDelivery(answer(401), 'partner').findings).toEqual([]);
  });
  it('partner: accepting an unsigned event fails ("Every state change sends a signed POST")', () => {
    const j = judgeUnsignedDelivery(answer(200), 'partner');
    expect(severities(j)).toEqual(['failure']);
    expect(j.requirements).toEqual(['PT-RCV-REQUIRE-SIGNATURE']);
  });
  it('gateway: accepting one is only a warning (postbackUrl deliveries are unsigned)', () => {
    expect(severities(judgeUnsignedDelivery(answer(200), 'gateway'))).toEqual(['warning']);
  });
});

describe('judgeSignatureInput', () => {
  it('accepts an endpoint that verifies the raw bytes', () => {
    expect(judgeSignatureInput({ exactBytes: answer(200), reserialized: answer(401) }, 'partner').findings).toEqual([]);
  });
  it('partner: fails both symptoms of verifying a re-serialisation', () => {
    const j = judgeSignatureInput({ exactBytes: answer(401), reserialized: answer(200) }, 'partner');
    expect(codes(j).sort()).toEqual(['receiver.accepted-reserialized', 'receiver.rejected-exact-body']);
    expect(severities(j)).toEqual(['failure', 'failure']);
  });
  it('gateway: "JSON of the payload" is ambiguous: a refused exact body warns, an accepted re-serialisation is allowed', () => {
    expect(severities(judgeSignatureInput({ exactBytes: answer(401), reserialized: answer(200) }, 'gateway'))).toEqual(['warning']);
    expect(judgeSignatureInput({ exactBytes: answer(200), reserialized: answer(200) }, 'gateway').findings).toEqual([]);
  });
});

describe('judgeDigestEncoding', () => {
  it('accepts lowercase hex, whatever the endpoint does with uppercase', () => {
    expect(judgeDigestEncoding({ lowercase: answer(200), uppercase: answer(401) }, 'gateway').findings).toEqual([]);
    expect(judgeDigestEncoding({ lowercase: answer(200), uppercase: answer(200) }, 'partner').findings).toEqual([]);
  });
  it('gateway: a refused lowercase hex digest fails ("lowercase hex" is stated)', () => {
    const j = judgeDigestEncoding({ lowercase: answer(401), uppercase: answer(200) }, 'gateway');
    expect(severities(j)).toEqual(['failure']);
    expect(j.requirements).toEqual(['GW-RCV-DIGEST-HEX']);
  });
  it('partner: one case refused while the other is accepted warns (case not stated)', () => {
    expect(severities(judgeDigestEncoding({ lowercase: answer(401), uppercase: answer(200) }, 'partner'))).toEqual(['warning']);
    expect(severities(judgeDigestEncoding({ lowercase: answer(200), uppercase: answer(401) }, 'partner'))).toEqual(['warning']);
  });
});

describe('judgeStaleTimestamp', () => {
  it('accepts a refusal of a stale t', () => {
    expect(judgeStaleTimestamp(answer(401), 600).findings).toEqual([]);
  });
  it('warns when a stale t is accepted (300 s is "the default")', () => {
    const j = judgeStaleTimestamp(answer(200), 600);
    expect(severities(j)).toEqual(['warning']);
    expect(j.requirements).toEqual(['PT-RCV-TOLERANCE']);
  });
});

describe('judgeProcessedOnce', () => {
  const obs = (count: number, sameBy: 'event-id' | 'end-to-end-id' = 'event-id') => ({ label: 'dup', sameBy, eventIds: ['e1'], count });
  it('accepts once (and zero: nothing was processed twice)', () => {
    expect(judgeProcessedOnce(obs(1), 'gateway').findings).toEqual([]);
    expect(judgeProcessedOnce(obs(0), 'partner').findings).toEqual([]);
  });
  it('fails the same event id processed twice, on both schemes', () => {
    expect(severities(judgeProcessedOnce(obs(2), 'gateway'))).toEqual(['failure']);
    expect(judgeProcessedOnce(obs(8), 'partner').findings[0]?.requirements).toEqual(['PT-RCV-IDEMPOTENT-CREDIT']);
  });
  it('one end-to-end id under two event ids: partner fails, gateway warns (the key is the receiver\'s choice)', () => {
    expect(severities(judgeProcessedOnce(obs(2, 'end-to-end-id'), 'partner'))).toEqual(['failure']);
    const gw = judgeProcessedOnce(obs(2, 'end-to-end-id'), 'gateway');
    expect(severities(gw)).toEqual(['warning']);
    expect(gw.requirements).toEqual(['GW-RCV-IDEMPOTENT-E2E']);
  });
});

describe('judgePaidProcessed', () => {
  it('accepts a paid event reported processed', () => {
    expect(judgePaidProcessed({ label: 'paid', eventId: 'e1', count: 1, waitedMs: 100 }, 'gateway').findings).toEqual([]);
  });
  it('warns when it never shows, or shows with count 0 (asynchronous; order not stated)', () => {
    expect(severities(judgePaidProcessed({ label: 'paid', eventId: 'e1', count: undefined, waitedMs: 5000 }, 'partner'))).toEqual(['warning']);
    expect(judgePaidProcessed({ label: 'paid', eventId: 'e1', count: 0, waitedMs: 5000 }, 'gateway').requirements).toEqual(['GW-RCV-PAID-PROCESSED']);
  });
});

describe('payload rules', () => {
  it('extra fields: 2xx accepted, a refusal fails', () => {
    expect(ensureExtraFieldsAccepted(answer(200), 'gateway').findings).toEqual([]);
    expect(severities(ensureExtraFieldsAccepted(answer(422), 'partner'))).toEqual(['failure']);
  });
  it('large body: 2xx accepted, a 413 warns (no size is stated)', () => {
    expect(judgeLargeBodyAccepted(answer(200), 'partner', 262_144).findings).toEqual([]);
    const j = judgeLargeBodyAccepted(answer(413), 'gateway', 262_144);
    expect(severities(j)).toEqual(['warning']);
    expect(j.requirements).toEqual(['GW-RCV-BODY-SIZE']);
  });
});
