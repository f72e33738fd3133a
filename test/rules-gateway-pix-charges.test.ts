import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import type { Judgement } from '../harness/rules/finding.js';
import {
  answerPixChargeLookup,
  answerUnknownPixCharge,
  ensureChargePaid,
  ensurePixChargeCreatedPending,
  honourPixChargeRequest,
  refusePayOfPaidCharge,
  verifyCreatedPixCharge,
  verifyPixChargeBrCode,
  verifyPixChargeId,
  type ChargePart,
  type ChargePartAnswers,
} from '../harness/rules/gateway/pix-charges.js';
import { answer, answered, found } from './rules-gateway-fixtures.js';

const envelope = (data: Record<string, unknown>) => ({ success: true, message: 'ok', data });
/** A documented error body ({success: false, message}) naming no field in particular. */
const ERR = { success: false, message: 'invalid body' };
/** The requirements of this section a judgement decided (the Errors rule's are its own). */
const own = (j: Judgement) => j.requirements.filter((id) => !id.startsWith('GW-ERR-'));
const body = { amountInCents: 1000, customer: { documentType: 'cpf', document: '52998224725' } };

describe('honourPixChargeRequest: a valid body ("200: success, message (string), data (PIX charge)")', () => {
  it('passes 200 and decides the parts it exercises (sent: their field rule; left out: "Required: no")', () => {
    const j = honourPixChargeRequest.judge({ case: 'valid', body, answer: answer(200, envelope({ id: 'c1' })), exercises: ['amount', 'items', 'tracking', 'billing-address'] });
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(['GW-PIXIN-CREATE-200', 'GW-PIXIN-AMOUNT-MIN', 'GW-PIXIN-ITEMS-OPTIONAL', 'GW-PIXIN-TRACKING-OPTIONAL', 'GW-PIXIN-CUSTOMER-OPTIONAL']);
    const sent = honourPixChargeRequest.judge({ case: 'valid', body: { ...body, items: [], trackingParameters: {} }, answer: answer(200, envelope({})), exercises: ['items', 'tracking'] });
    expect(sent.requirements).toEqual(['GW-PIXIN-CREATE-200', 'GW-PIXIN-ITEM-FIELDS', 'GW-TRACK-ACCEPTED']);
  });
  it('fails a refusal or another 2xx; decides nothing on a 429', () => {
    expect(found(honourPixChargeRequest.judge({ case: 'valid', body, answer: answer(400, { success: false, message: 'x' }) }))).toEqual(['failure:pixin.create-status']);
    expect(found(honourPixChargeRequest.judge({ case: 'valid', body, answer: answer(201, envelope({})) }))).toEqual(['failure:pixin.create-status']);
    expect(honourPixChargeRequest.judge({ case: 'valid', body, answer: answer(429, {}) }).requirements).toEqual([]);
  });
});

describe('honourPixChargeRequest: a body breaking one rule', () => {
  const breaks = (path: string, kind: string | undefined, status: number, json: unknown = ERR, requirements?: string[]) =>
    honourPixChargeRequest.judge({ case: 'breaks', path, ...(kind ? { kind } : {}), ...(requirements ? { requirements } : {}), what: path, answer: answer(status, json) });
  it('passes 400 and 422, warns on another 4xx, fails a 2xx or a 5xx', () => {
    expect(found(breaks('amountInCents', 'min-1', 400))).toEqual([]);
    expect(found(breaks('amountInCents', 'min-1', 422, { success: false, message: 'amountInCents must be at least 100' }))).toEqual([]);
    expect(found(breaks('amountInCents', 'min-1', 409))).toEqual(['warning:validation.other-4xx']);
    expect(found(breaks('amountInCents', 'min-1', 200, envelope({ id: 'c' })))).toEqual(['failure:pixin.invalid-accepted']);
    expect(found(breaks('amountInCents', 'min-1', 502))).toEqual(['failure:validation.status']);
  });
  it('hands the refusal to the Errors rule (the body shape, the field a 422 names)', () => {
    expect(breaks('amountInCents', 'min-1', 422, { success: false, message: 'amountInCents: minimum 100' }).requirements).toEqual(['GW-PIXIN-AMOUNT-MIN', 'GW-PIXIN-CREATE-400', 'GW-ERR-400-MEANING', 'GW-ERR-SHAPES', 'GW-ERR-422-FIELD']);
    expect(found(breaks('amountInCents', 'min-1', 400, {}))).toEqual(['failure:error.shape']);
  });
  it('decides the clause broken, narrowed by the x-requirement of the node', () => {
    expect(own(breaks('amountInCents', 'min-1', 400))).toEqual(['GW-PIXIN-AMOUNT-MIN', 'GW-PIXIN-CREATE-400']);
    expect(own(breaks('amountInCents', 'fractional', 400))).toEqual(['GW-PIXIN-AMOUNT-INT', 'GW-PIXIN-CREATE-400']);
    expect(own(breaks('customer', 'missing-required', 400))).toEqual(['GW-PIXIN-CUSTOMER-OBJECT', 'GW-PIXIN-CREATE-400']);
    expect(own(breaks('customer.documentType', 'missing-documentType', 400))).toEqual(['GW-PIXIN-CUSTOMER-REQUIRED', 'GW-PIXIN-CREATE-400']);
    expect(own(breaks('customer.documentType', 'bad-enum', 400))).toEqual(['GW-PIXIN-DOCTYPE-ENUM', 'GW-PIXIN-CREATE-400']);
    expect(own(breaks('customer.document', 'digits', 400))).toEqual(['GW-PIXIN-DOC-DIGITS', 'GW-PIXIN-CREATE-400']);
    expect(own(breaks('items.0.title', 'wrong-type', 400, ERR, ['GW-PIXIN-ITEM-FIELDS']))).toEqual(['GW-PIXIN-ITEM-FIELDS', 'GW-PIXIN-CREATE-400']);
    expect(own(breaks('unexpectedProperty', 'unexpected-property', 400))).toEqual(['GW-PIXIN-CREATE-400']);
  });
  it('only warns when a valid document of the other type is accepted', () => {
    expect(found(breaks('customer.documentType', 'documentType-mismatch', 200, envelope({})))).toEqual(['warning:pixin.borderline-accepted']);
    expect(own(breaks('customer.documentType', 'documentType-mismatch', 200, envelope({})))).toEqual(['GW-PIXIN-DOC-VALID', 'GW-PIXIN-CREATE-400']);
  });
});

describe('honourPixChargeRequest: documents ("require a valid CPF or CNPJ"; "digits only")', () => {
  const doc = (documentType: 'cpf' | 'cnpj', document: string, status: number, json: unknown = ERR) => honourPixChargeRequest.judge({ case: 'document', documentType, document, what: document, answer: answer(status, json) });
  it('fails an accepted invalid CNPJ (numeric and alphanumeric) and one-digit documents; passes refusals', () => {
    for (const [type, d] of [['cnpj', '11222333000182'], ['cnpj', '12ABC34501DE36'], ['cpf', '00000000000'], ['cnpj', '11111111111111']] as const) {
      const j = doc(type, d, 200, envelope({ id: 'c' }));
      expect(found(j), d).toEqual(['failure:pixin.invalid-accepted']);
      expect(own(j)).toEqual(['GW-PIXIN-DOC-VALID', 'GW-PIXIN-CREATE-400']);
      expect(found(doc(type, d, 400))).toEqual([]);
    }
  });
  it('warns on another 4xx for an invalid document; fails a 5xx', () => {
    expect(found(doc('cpf', '52998224726', 404))).toEqual(['warning:validation.other-4xx']);
    expect(found(doc('cpf', '52998224726', 500))).toEqual(['failure:validation.status']);
  });
  it('a valid alphanumeric CNPJ: accepted passes, refused warns (README), a 5xx fails', () => {
    expect(found(doc('cnpj', '12ABC34501DE35', 200, envelope({})))).toEqual([]);
    expect(found(doc('cnpj', '12ABC34501DE35', 400))).toEqual(['warning:pixin.cnpj-alnum-refused']);
    expect(found(doc('cnpj', '12ABC34501DE35', 500))).toEqual(['failure:pixin.create-status']);
    expect(doc('cnpj', '12ABC34501DE35', 200, envelope({})).requirements).toEqual(['GW-PIXIN-DOC-CNPJ-ALNUM']);
  });
  it('a valid CPF with punctuation: refused passes, accepted warns ("digits only" is ambiguous)', () => {
    expect(found(doc('cpf', '529.982.247-25', 422))).toEqual([]);
    expect(found(doc('cpf', '529.982.247-25', 200, envelope({})))).toEqual(['warning:pixin.borderline-accepted']);
    expect(doc('cpf', '529.982.247-25', 422).requirements).toEqual(['GW-PIXIN-DOC-DIGITS']);
  });
  it('a valid document is created', () => {
    expect(found(doc('cpf', '52998224725', 200, envelope({})))).toEqual([]);
    expect(found(doc('cpf', '52998224725', 400))).toEqual(['failure:pixin.create-status']);
  });
});

describe('honourPixChargeRequest: splits ("sum over all entries must not exceed 100")', () => {
  const split = (splits: { percentage: number; email?: string }[], recipient: 'company' | 'unknown', status: number) => honourPixChargeRequest.judge({ case: 'split', split: { splits, recipient }, what: 'splits', answer: answer(status, status < 300 ? envelope({}) : { success: false, message: 'splits: the email is no company' }) });
  it('accepts 100 % for a company, refuses over 100 % for anyone', () => {
    expect(found(split([{ percentage: 100 }], 'company', 200))).toEqual([]);
    expect(found(split([{ percentage: 60 }, { percentage: 41 }], 'unknown', 400))).toEqual([]);
    expect(found(split([{ percentage: 50 }, { percentage: 50.01 }], 'company', 200))).toEqual(['failure:pixin.invalid-accepted']);
    expect(own(split([{ percentage: 50 }, { percentage: 50.01 }], 'company', 400))).toEqual(['GW-PIXIN-SPLIT-SUM', 'GW-PIXIN-CREATE-400']);
  });
  it('fails a refusal of a valid split, but only warns when the float sum exceeds 100', () => {
    expect(found(split([{ percentage: 10 }], 'company', 400))).toEqual(['failure:pixin.split-refused']);
    // 0.01 + 64.04 + 35.95 > 100 in binary floating point
    expect(found(split([{ percentage: 0.01 }, { percentage: 64.04 }, { percentage: 35.95 }], 'company', 400))).toEqual(['warning:pixin.split-refused-float']);
  });
  it('accepts the refusal of a list that repeats one recipient (nothing says one may appear twice)', () => {
    expect(found(split([{ email: 'a@x.com', percentage: 50 }, { email: 'A@x.com', percentage: 20 }], 'company', 422))).toEqual([]);
    expect(found(split([{ email: 'a@x.com', percentage: 50 }, { email: 'b@x.com', percentage: 20 }], 'company', 422))).toEqual(['failure:pixin.split-refused']);
  });
  it('warns when a split to no company on the platform is accepted', () => {
    expect(found(split([{ percentage: 10 }], 'unknown', 200))).toEqual(['warning:pixin.split-unknown-accepted']);
    expect(found(split([{ percentage: 10 }], 'unknown', 422))).toEqual([]);
  });
  it('fails a split percentage that is no number ("percentage | number") when it is accepted, whatever it reads as', () => {
    const typed = (status: number) => honourPixChargeRequest.judge({ case: 'breaks', path: 'splits.0.percentage', kind: 'wrong-type', what: 'a split percentage sent as "10"', answer: answer(status, status < 300 ? envelope({ id: 'c1' }) : { success: false, message: 'splits[0].percentage: must be a number' }) });
    expect(found(typed(200))).toEqual(['failure:pixin.invalid-accepted']);
    expect(found(typed(400))).toEqual([]);
    expect(found(typed(422))).toEqual([]);
    expect(own(typed(400))).toEqual(['GW-PIXIN-SPLIT-SUM', 'GW-PIXIN-CREATE-400']);
  });
});

describe('honourPixChargeRequest: open values', () => {
  it('any 2xx or 4xx passes, a 5xx fails', () => {
    expect(found(honourPixChargeRequest.judge({ case: 'open', part: 'description', what: 'emoji', answer: answer(422, {}) }))).toEqual([]);
    expect(found(honourPixChargeRequest.judge({ case: 'open', part: 'amount', what: 'huge', answer: answer(500, {}) }))).toEqual(['failure:pixin.open-status']);
  });
});

describe('the created charge ("PIX charge (response data)"; "(creation) → pending")', () => {
  it('verifyCreatedPixCharge: an id, pending and integer fees pass', () => {
    const j = verifyCreatedPixCharge.judge(answer(200, envelope({ id: 'c1', status: 'pending', fees: 99 })));
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(expect.arrayContaining(['GW-PIXIN-RESP-ID', 'GW-PIXIN-CREATE-PENDING', 'GW-PIXIN-FEES-INT', 'GW-MONEY-CENTS']));
  });
  it('fails a numeric id, another status, fees as a string', () => {
    expect(found(verifyPixChargeId.judge(answer(200, envelope({ id: 7 }))))).toEqual(['failure:pixin.id']);
    expect(found(ensurePixChargeCreatedPending.judge(answer(200, envelope({ status: 'PENDING' }))))).toEqual(['failure:pixin.not-pending']);
    const fees = verifyCreatedPixCharge.judge(answer(200, envelope({ id: 'c1', status: 'pending', fees: '99' })));
    expect(found(fees)).toEqual(['failure:money.not-cents']);
    expect(fees.findings[0]?.requirements).toEqual(['GW-MONEY-CENTS', 'GW-PIXIN-FEES-INT']);
  });
  // a dynamic BR Code (payload URL in 26.25, amount 10.00 in field 54) with its correct CRC
  const EMV = '00020101021226480014br.gov.bcb.pix2526pix.example.com/qr/v2/1234520400005303986540510.005802BR5913Fulano de Tal6008Brasilia62070503***6304';
  const withCrc = async (): Promise<string> => {
    const { computeBrCodeCrc } = await import('../harness/rules/emv.js');
    return EMV + computeBrCodeCrc(EMV);
  };
  const png = async (text: string): Promise<string> => (await QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 4 })).toString('base64');
  it('verifyPixChargeBrCode: the BR Code of the amount and a PNG of exactly it pass', async () => {
    const emv = await withCrc();
    const j = verifyPixChargeBrCode.judge({ answer: answer(200, envelope({ pix: { emv, qrCode: await png(emv) } })), amountCents: 1000 });
    expect(found(j)).toEqual([]);
    expect(j.requirements).toEqual(['GW-PIXIN-EMV', 'GW-PIXIN-DYNAMIC-QR', 'GW-PIXIN-QRCODE-PNG', 'GW-PIXIN-QRCODE-MATCHES-EMV']);
  });
  it('verifyPixChargeBrCode: a wrong CRC, another amount, and an image of another text fail', async () => {
    const emv = await withCrc();
    const crc = verifyPixChargeBrCode.judge({ answer: answer(200, envelope({ pix: { emv: `${emv.slice(0, -4)}0000`, qrCode: await png(emv) } })), amountCents: 1000 });
    expect(found(crc)).toContain('failure:emv.crc');
    expect(found(verifyPixChargeBrCode.judge({ answer: answer(200, envelope({ pix: { emv, qrCode: await png(emv) } })), amountCents: 999 }))).toEqual(['failure:emv.amount-mismatch']);
    const other = verifyPixChargeBrCode.judge({ answer: answer(200, envelope({ pix: { emv, qrCode: await png('https://pix.example.com/qr/v2/12345') } })), amountCents: 1000 });
    expect(found(other)).toEqual(['failure:qr.mismatch']);
    expect(other.findings[0]?.requirements).toEqual(['GW-PIXIN-QRCODE-MATCHES-EMV']);
  });
  it('verifyPixChargeBrCode: an image that is no PNG fails GW-PIXIN-QRCODE-PNG only', () => {
    const j = verifyPixChargeBrCode.judge({ answer: answer(200, envelope({ pix: { emv: '000201', qrCode: Buffer.from('not a png').toString('base64') } })), amountCents: 100 });
    const image = j.findings.filter((f) => f.requirements.includes('GW-PIXIN-QRCODE-PNG'));
    expect(image.length).toBeGreaterThan(0);
    expect(j.findings.every((f) => !f.requirements.includes('GW-PIXIN-QRCODE-MATCHES-EMV'))).toBe(true);
    expect(j.requirements).not.toContain('GW-PIXIN-QRCODE-MATCHES-EMV');
  });
});

describe('lookups and /pay', () => {
  it('answerPixChargeLookup: 200, the charge asked for, in the expected state', () => {
    expect(found(answerPixChargeLookup.judge({ answer: answer(200, envelope({ id: 'a', status: 'paid' })), id: 'a', expected: { status: 'paid', why: 'x' } }))).toEqual([]);
    const other = answerPixChargeLookup.judge({ answer: answer(200, envelope({ id: 'b', status: 'pending' })), id: 'a', expected: { status: 'paid', why: 'after /pay' } });
    expect(found(other)).toEqual(['failure:pixin.lookup-id', 'failure:pixin.lookup-state']);
    expect(other.findings[1]?.requirements).toEqual(['GW-PIXIN-GET-CURRENT-STATUS']);
    expect(found(answerPixChargeLookup.judge({ answer: answer(404, {}) }))).toEqual(['failure:pixin.lookup-status']);
  });
  it('answerUnknownPixCharge: the lookup needs {error: NOT_FOUND}; /pay any 404; a 500 fails', () => {
    expect(found(answerUnknownPixCharge.judge({ route: 'lookup', id: 'x', answer: answer(404, { error: 'NOT_FOUND', message: 'no' }) }))).toEqual([]);
    expect(found(answerUnknownPixCharge.judge({ route: 'lookup', id: 'x', answer: answer(404, { success: false, message: 'no' }) }))).toEqual(['failure:pixin.unknown-body']);
    expect(found(answerUnknownPixCharge.judge({ route: 'pay', id: 'x', answer: answer(404, { success: false, message: 'no' }) }))).toEqual([]);
    expect(found(answerUnknownPixCharge.judge({ route: 'pay', id: 'x', answer: answer(500, {}) }))).toEqual(['failure:pixin.unknown-status']);
  });
  it('ensureChargePaid: 200 paid with an endToEndId for the charge; others fail', () => {
    expect(found(ensureChargePaid.judge({ answer: answer(200, envelope({ id: 'a', status: 'paid', endToEndId: 'E123' })), chargeId: 'a' }))).toEqual([]);
    expect(found(ensureChargePaid.judge({ answer: answer(200, envelope({ id: 'b', status: 'PAID', endToEndId: '' })), chargeId: 'a' }))).toEqual(['failure:pixin.pay-state', 'failure:pixin.pay-e2e', 'failure:pixin.pay-id']);
    expect(found(ensureChargePaid.judge({ answer: answer(400, {}), chargeId: 'a' }))).toEqual(['failure:pixin.pay-status']);
  });
  it('refusePayOfPaidCharge: 400 passes; a 2xx or a 404 fails', () => {
    expect(found(refusePayOfPaidCharge.judge(answer(400, { success: false, message: 'x' })))).toEqual([]);
    expect(found(refusePayOfPaidCharge.judge(answer(200, envelope({}))))).toEqual(['failure:pixin.paid-again']);
    expect(found(refusePayOfPaidCharge.judge(answer(404, {})))).toEqual(['failure:pixin.pay-again-status']);
  });
});

describe('honourPixChargeRequest: parts (every optional part, sent or left out, is accepted)', () => {
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
  const failing = (j: Judgement) => [...new Set(j.findings.filter((f) => f.severity === 'failure').flatMap((f) => f.requirements))].sort();

  it('passes when every valid variant is created, deciding every part in both directions', () => {
    const j = honourPixChargeRequest.judge({ case: 'parts', answers: answers(() => false) });
    expect(j.findings).toEqual([]);
    expect([...j.requirements].sort()).toEqual(
      ['GW-ADDR-STRINGS', 'GW-PIXIN-CUSTOMER-OPTIONAL', 'GW-PIXIN-ITEM-FIELDS', 'GW-PIXIN-ITEMS-OPTIONAL', 'GW-PIXIN-POSTBACK-URI', 'GW-PIXIN-SPLIT-EMAIL', 'GW-PIXIN-SPLITS-OPTIONAL', 'GW-PIXIN-TRACKING-OPTIONAL', 'GW-TRACK-ACCEPTED'],
    );
  });
  it('a part required: the omissions name its "Required: no", not the other parts', () => {
    const j = honourPixChargeRequest.judge({ case: 'parts', answers: answers((v) => !v.sent.includes('items')) });
    expect(failing(j)).toEqual(['GW-PIXIN-ITEMS-OPTIONAL']);
  });
  it('a required-everything DTO: each omission names its own part', () => {
    const j = honourPixChargeRequest.judge({ case: 'parts', answers: answers((v) => v.sent.length < parts.length) });
    expect(failing(j)).toEqual(['GW-PIXIN-CUSTOMER-OPTIONAL', 'GW-PIXIN-ITEMS-OPTIONAL', 'GW-PIXIN-POSTBACK-URI', 'GW-PIXIN-SPLITS-OPTIONAL', 'GW-PIXIN-TRACKING-OPTIONAL']);
  });
  it('a valid part refused when sent: its field sentence', () => {
    expect(failing(honourPixChargeRequest.judge({ case: 'parts', answers: answers((v) => v.sent.includes('tracking')) }))).toEqual(['GW-TRACK-ACCEPTED']);
    expect(failing(honourPixChargeRequest.judge({ case: 'parts', answers: answers((v) => v.sent.includes('postback')) }))).toEqual(['GW-PIXIN-POSTBACK-URI']);
    expect(failing(honourPixChargeRequest.judge({ case: 'parts', answers: answers((v) => v.sent.includes('items') || v.sent.includes('billing-address')) }))).toEqual(['GW-ADDR-STRINGS', 'GW-PIXIN-ITEM-FIELDS']);
  });
  it('only the combination refused: the full body names every part sent', () => {
    const j = honourPixChargeRequest.judge({ case: 'parts', answers: answers((v) => v.sent.length === parts.length) });
    expect(failing(j)).toEqual(['GW-ADDR-STRINGS', 'GW-PIXIN-CUSTOMER-OPTIONAL', 'GW-PIXIN-ITEM-FIELDS', 'GW-PIXIN-POSTBACK-URI', 'GW-PIXIN-SPLIT-EMAIL', 'GW-TRACK-ACCEPTED']);
  });
  it('everything refused: a valid body is refused, no part is blamed', () => {
    expect(failing(honourPixChargeRequest.judge({ case: 'parts', answers: answers(() => true) }))).toEqual(['GW-PIXIN-CREATE-200']);
  });
});
