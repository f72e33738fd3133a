import { describe, expect, it } from 'vitest';
import {
  effectsAgree,
  ensureChargeStatus,
  expectAlphanumericCnpjAccepted,
  expectInvalidCustomerRejected,
  judgeChargeParts,
  judgePixCreditWindows,
  judgeSplitAnswer,
  verifyChargeQrCode,
  verifyLookupId,
  verifyPaidCharge,
  type ChargePart,
  type ChargePartAnswers,
  type CreditWindow,
} from '../harness/rules/gateway/pix-charges.js';
import { answered, codes, severities } from './rules-gateway-fixtures.js';

const envelope = (data: Record<string, unknown>) => ({ success: true, message: 'ok', data });

describe('ensureChargeStatus ("valid request | pending"; "charge is pending | paid")', () => {
  const c = { requirements: ['GW-PIXIN-CREATE-PENDING'] as const };
  it('accepts the expected status', () => {
    expect(ensureChargeStatus(envelope({ status: 'pending' }), 'pending', c)).toEqual({ requirements: ['GW-PIXIN-CREATE-PENDING'], findings: [] });
  });
  it('fails another status or none', () => {
    expect(codes(ensureChargeStatus(envelope({ status: 'paid' }), 'pending', c))).toEqual(['pixin.status']);
    expect(codes(ensureChargeStatus({}, 'paid', c))).toEqual(['pixin.status']);
  });
});

describe('verifyLookupId and verifyPaidCharge', () => {
  const c = { requirements: ['GW-PIXIN-PAY-200'] as const };
  it('accepts the charge asked for, paid with an endToEndId', () => {
    expect(verifyLookupId(envelope({ id: 'a' }), 'a', c).findings).toEqual([]);
    expect(verifyPaidCharge(envelope({ id: 'a', status: 'paid', endToEndId: 'E123' }), 'a', c).findings).toEqual([]);
  });
  it('fails another charge, a missing endToEndId or a status other than paid', () => {
    expect(codes(verifyLookupId(envelope({ id: 'b' }), 'a', c))).toEqual(['pixin.lookup-id']);
    expect(codes(verifyPaidCharge(envelope({ id: 'b', status: 'pending', endToEndId: '' }), 'a', c))).toEqual(['pixin.status', 'pixin.pay-end-to-end', 'pixin.pay-id']);
  });
});

describe('verifyChargeQrCode ("pix.qrCode | PNG image, base64" of the same charge)', () => {
  it('fails an image that is no PNG under GW-PIXIN-QRCODE-PNG', () => {
    const j = verifyChargeQrCode(Buffer.from('not a png').toString('base64'), '000201', { requirements: ['GW-PIXIN-QRCODE-PNG'] });
    expect(j.findings.length).toBeGreaterThan(0);
    expect(j.findings.every((f) => !f.requirements.includes('GW-PIXIN-QRCODE-MATCHES-EMV'))).toBe(true);
  });
});

describe('expectAlphanumericCnpjAccepted (README: rejecting a valid one is a warning)', () => {
  const c = { requirements: ['GW-PIXIN-DOC-CNPJ-ALNUM'] as const };
  it('accepts 200, warns on a refusal, fails a 5xx', () => {
    expect(expectAlphanumericCnpjAccepted(answered(200, envelope({ id: 'x' })), '12ABC34501DE35', c).findings).toEqual([]);
    const refused = expectAlphanumericCnpjAccepted(answered(400), '12ABC34501DE35', c);
    expect(severities(refused)).toEqual(['warning']);
    expect(refused.findings[0]?.title).toContain('12ABC34501DE35');
    expect(severities(expectAlphanumericCnpjAccepted(answered(500), '12ABC34501DE35', c))).toEqual(['failure']);
  });
});

describe('expectInvalidCustomerRejected ("require a valid CPF or CNPJ")', () => {
  const c = { requirements: ['GW-PIXIN-DOC-VALID'] as const };
  it('accepts a refusal and fails an invalid document accepted', () => {
    expect(expectInvalidCustomerRejected(answered(422), 'invalid-document', c).findings).toEqual([]);
    expect(severities(expectInvalidCustomerRejected(answered(200, envelope({})), 'invalid-document', c))).toEqual(['failure']);
  });
  it('only warns when a valid document of the other type is accepted', () => {
    expect(severities(expectInvalidCustomerRejected(answered(200, envelope({})), 'documentType-mismatch', c))).toEqual(['warning']);
    expect(codes(expectInvalidCustomerRejected(answered(500), 'documentType-mismatch', c))).toEqual(['target.5xx']);
  });
});

describe('judgeSplitAnswer ("sum over all entries must not exceed 100")', () => {
  const c = { requirements: ['GW-PIXIN-SPLIT-SUM'] as const };
  it('accepts 100 % for a company, refuses over 100 % for anyone', () => {
    expect(judgeSplitAnswer(answered(200, envelope({})), { splits: [{ percentage: 100 }], recipient: 'company' }, c).findings).toEqual([]);
    expect(judgeSplitAnswer(answered(400), { splits: [{ percentage: 60 }, { percentage: 41 }], recipient: 'unknown' }, c).findings).toEqual([]);
    expect(severities(judgeSplitAnswer(answered(200, envelope({})), { splits: [{ percentage: 50 }, { percentage: 50.01 }], recipient: 'company' }, c))).toEqual(['failure']);
  });
  it('fails a refusal of a valid split, but only warns when the float sum exceeds 100', () => {
    expect(severities(judgeSplitAnswer(answered(400), { splits: [{ percentage: 10 }], recipient: 'company' }, c))).toEqual(['failure']);
    // 0.01 + 64.04 + 35.95 > 100 in binary floating point
    expect(severities(judgeSplitAnswer(answered(400), { splits: [{ percentage: 0.01 }, { percentage: 64.04 }, { percentage: 35.95 }], recipient: 'company' }, c))).toEqual(['warning']);
  });
  it('accepts the refusal of a list that repeats one recipient (nothing says one may appear twice)', () => {
    const splits = [{ email: 'a@x.com', percentage: 50 }, { email: 'A@x.com', percentage: 20 }];
    expect(judgeSplitAnswer(answered(422), { splits, recipient: 'company' }, c).findings).toEqual([]);
    expect(severities(judgeSplitAnswer(answered(422), { splits: [{ email: 'a@x.com', percentage: 50 }, { email: 'b@x.com', percentage: 20 }], recipient: 'company' }, c))).toEqual(['failure']);
  });
  it('warns when a split to no company on the platform is accepted', () => {
    expect(severities(judgeSplitAnswer(answered(200, envelope({})), { splits: [{ percentage: 10 }], recipient: 'unknown' }, c))).toEqual(['warning']);
    expect(judgeSplitAnswer(answered(422), { splits: [{ percentage: 10 }], recipient: 'unknown' }, c).findings).toEqual([]);
  });
});

describe('judgePixCreditWindows ("Paid PIX credit goes into the balance")', () => {
  const c = { requirements: ['GW-PIXIN-PAID-CREDITS-BALANCE'] as const };
  const w = (amount: number, fees: number, delta: number): CreditWindow => ({ amount, fees, delta, quiet: true, exchange: answered(200), text: `${delta}` });
  it('passes a credit anywhere between net and gross', () => {
    expect(judgePixCreditWindows([w(10_000, 100, 10_000)], c)).toEqual({ requirements: ['GW-PIXIN-PAID-CREDITS-BALANCE'], findings: [] });
    expect(judgePixCreditWindows([w(10_000, 100, 9_900)], c).findings).toEqual([]);
  });
  it('decides nothing on one wrong window or on unrelated ones', () => {
    expect(judgePixCreditWindows([w(10_000, 100, 0)], c).requirements).toEqual([]);
    expect(judgePixCreditWindows([w(10_000, 100, 20_000), w(30_000, 100, 31_777)], c).requirements).toEqual([]);
  });
  it('fails two quiet windows whose wrong credits agree (a systematic deviation)', () => {
    expect(codes(judgePixCreditWindows([w(10_000, 100, 20_000), w(30_000, 100, 60_000)], c))).toEqual(['balance.pix-credit']);
    expect(codes(judgePixCreditWindows([w(10_000, 100, 0), w(30_000, 100, 0)], c))).toEqual(['balance.pix-credit']);
  });
  it('effectsAgree: the same ratio or the same offset', () => {
    expect(effectsAgree({ delta: 200, amount: 100, expected: 100 }, { delta: 600, amount: 300, expected: 300 })).toBe(true);
    expect(effectsAgree({ delta: 150, amount: 100, expected: 100 }, { delta: 350, amount: 300, expected: 300 })).toBe(true);
    expect(effectsAgree({ delta: 150, amount: 100, expected: 100 }, { delta: 990, amount: 300, expected: 300 })).toBe(false);
  });
});

describe('judgeChargeParts (every optional part, sent or left out, is accepted)', () => {
  const c = { requirements: ['GW-PIXIN-CREATE-200'] as const };
  const parts: ChargePart[] = ['customer-details', 'billing-address', 'items', 'tracking', 'splits', 'postback'];
  /** answers where `refuse(variant)` decides which variants get a 400 */
  const answers = (refuse: (variant: { sent: readonly ChargePart[] }) => boolean): ChargePartAnswers => {
    const at = (sent: readonly ChargePart[]) => answered(refuse({ sent }) ? 400 : 200, refuse({ sent }) ? { success: false, message: 'invalid' } : { success: true, message: 'ok', data: {} });
    return {
      minimal: at([]),
      full: at(parts),
      withPart: Object.fromEntries(parts.map((p) => [p, at([p])])),
      withoutPart: Object.fromEntries(parts.map((p) => [p, at(parts.filter((q) => q !== p))])),
    };
  };
  const failing = (j: ReturnType<typeof judgeChargeParts>) => [...new Set(j.findings.filter((f) => f.severity === 'failure').flatMap((f) => f.requirements))].sort();

  it('passes when every valid variant is created, deciding every part in both directions', () => {
    const j = judgeChargeParts(answers(() => false), c);
    expect(j.findings).toEqual([]);
    expect([...j.requirements].sort()).toEqual(
      ['GW-ADDR-STRINGS', 'GW-PIXIN-CUSTOMER-OPTIONAL', 'GW-PIXIN-ITEM-FIELDS', 'GW-PIXIN-ITEMS-OPTIONAL', 'GW-PIXIN-POSTBACK-URI', 'GW-PIXIN-SPLIT-EMAIL', 'GW-PIXIN-SPLITS-OPTIONAL', 'GW-PIXIN-TRACKING-OPTIONAL', 'GW-TRACK-ACCEPTED'],
    );
  });
  it('a part required: the omissions name its "Required: no", not the other parts', () => {
    const j = judgeChargeParts(answers((v) => !v.sent.includes('items')), c);
    expect(failing(j)).toEqual(['GW-PIXIN-ITEMS-OPTIONAL']);
  });
  it('a required-everything DTO: each omission names its own part', () => {
    const j = judgeChargeParts(answers((v) => v.sent.length < parts.length), c);
    expect(failing(j)).toEqual(['GW-PIXIN-CUSTOMER-OPTIONAL', 'GW-PIXIN-ITEMS-OPTIONAL', 'GW-PIXIN-POSTBACK-URI', 'GW-PIXIN-SPLITS-OPTIONAL', 'GW-PIXIN-TRACKING-OPTIONAL']);
  });
  it('a valid part refused when sent: its field sentence', () => {
    expect(failing(judgeChargeParts(answers((v) => v.sent.includes('tracking')), c))).toEqual(['GW-TRACK-ACCEPTED']);
    expect(failing(judgeChargeParts(answers((v) => v.sent.includes('postback')), c))).toEqual(['GW-PIXIN-POSTBACK-URI']);
    expect(failing(judgeChargeParts(answers((v) => v.sent.includes('items') || v.sent.includes('billing-address')), c))).toEqual(['GW-ADDR-STRINGS', 'GW-PIXIN-ITEM-FIELDS']);
  });
  it('only the combination refused: the full body names every part sent', () => {
    const j = judgeChargeParts(answers((v) => v.sent.length === parts.length), c);
    expect(failing(j)).toEqual(['GW-ADDR-STRINGS', 'GW-PIXIN-CUSTOMER-OPTIONAL', 'GW-PIXIN-ITEM-FIELDS', 'GW-PIXIN-POSTBACK-URI', 'GW-PIXIN-SPLIT-EMAIL', 'GW-TRACK-ACCEPTED']);
  });
  it('everything refused: a valid body is refused, no part is blamed', () => {
    expect(failing(judgeChargeParts(answers(() => true), c))).toEqual(['GW-PIXIN-CREATE-200']);
  });
});
