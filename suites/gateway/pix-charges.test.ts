/**
 * PIX charges (cash-in): gateway-api.md "POST /api/v1/pix/in/qrcode", "GET …/{transactionId}",
 * "POST …/{transactionId}/pay (sandbox)", "Customer (PIX IN request)", "Item", "Split",
 * "PIX charge (response data)", "PIX charge" states, "Limits", "GET /api/v1/transactions/{id}".
 *
 * Every response is also validated against specs/gateway.openapi.yaml by the client's CheckRun.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import { expectStatus } from '../../harness/rules/status.js';
import { verifyEmv } from '../../harness/rules/emv.js';
import { verifyIntegerCents } from '../../harness/rules/money.js';
import { show } from '../../harness/rules/judgement.js';
import { expectInvalidBodyRejected, expectUnknownIdRefused, verifyErrorBody } from '../../harness/rules/gateway/errors.js';
import {
  ensureChargeStatus,
  expectAlphanumericCnpjAccepted,
  expectInvalidCustomerRejected,
  judgeChargeParts,
  judgeSplitAnswer,
  verifyChargeQrCode,
  type ChargePart,
  verifyLookupId,
  verifyPaidCharge,
} from '../../harness/rules/gateway/pix-charges.js';
import { verifyTransactionLookup } from '../../harness/rules/gateway/transactions.js';
import { judgeCustomerDocumentAnswer } from '../../harness/rules/gateway/documents-keys.js';
import { ensureNeverConfirmedBySelf } from '../../harness/rules/gateway/sandbox.js';
import {
  boundaryAmounts,
  cnpjAlphanumeric,
  cpf,
  cpfWithBadCheckDigit,
  formatCpf,
  invalidDocumentCases,
  invalidPixCustomer,
  splitScenario,
  TEXT_LIMITS,
} from '../../generators/index.js';
import type { ApiResponse, PixChargeRequest } from '../../harness/http/gateway-client.js';
import type { RequirementId } from '../../harness/rules/finding.js';
import { createPendingCharge, dataOf, freshCpf, isRecord, pixChargeBody, pixChargeRequest, uniqueTag } from './support.js';
import { receiverPath } from './webhook-steps.js';

const AREA = 'PIX charges';

/**
 * The body rules a valid PIX charge body exercises, so its acceptance (200) decides them: an
 * optional part left out ("customer.name | no", "items | no", "trackingParameters | no") or sent
 * ("All optional strings" of TrackingParameters, the BillingAddress "All strings", the Item fields).
 */
function exercisedBy(body: PixChargeRequest): RequirementId[] {
  const ids: RequirementId[] = [];
  ids.push(body.customer.name === undefined ? 'GW-PIXIN-CUSTOMER-OPTIONAL' : 'GW-PIXIN-DOC-VALID');
  ids.push(body.items === undefined ? 'GW-PIXIN-ITEMS-OPTIONAL' : 'GW-PIXIN-ITEM-FIELDS');
  ids.push(body.trackingParameters === undefined ? 'GW-PIXIN-TRACKING-OPTIONAL' : 'GW-TRACK-ACCEPTED');
  if (body.customer.billingAddress !== undefined) ids.push('GW-ADDR-STRINGS');
  return ids;
}

check(
  'a valid PIX charge (generated customers, items, tracking) is created pending with integer fees and looks up as pending',
  {
    id: 'gateway.pixin.create-pending',
    api: 'gateway',
    area: AREA,
    requirements: [
      'GW-PIXIN-CREATE-200',
      'GW-PIXIN-CREATE-PENDING',
      'GW-PIXIN-STATUS-ENUM',
      'GW-PIXIN-RESP-ID',
      'GW-PIXIN-FEES-INT',
      'GW-MONEY-CENTS',
      'GW-PIXIN-AMOUNT-MIN',
      'GW-PIXIN-DOC-VALID',
      'GW-PIXIN-DOCTYPE-ENUM',
      'GW-PIXIN-CUSTOMER-OPTIONAL',
      'GW-PIXIN-ITEMS-OPTIONAL',
      'GW-PIXIN-ITEM-FIELDS',
      'GW-PIXIN-TRACKING-OPTIONAL',
      'GW-TRACK-ACCEPTED',
      'GW-ADDR-STRINGS',
      'GW-PIXIN-GET-200',
      'GW-PIXIN-GET-CURRENT-STATUS',
      'GW-SANDBOX-NO-AUTO-CONFIRM',
    ],
    severity: 'critical',
  },
  async (t) => {
    // the minimum (100) is drawn often: "amountInCents | integer | yes | minimum 100"
    const amount = fc.oneof(fc.constant(100), fc.integer({ min: 100, max: 500_000 }));
    await t.property('valid bodies', pixChargeRequest({ amount, customer: { cnpjVariant: 'numeric' } }), async (body, it) => {
      const gw = it.gateway();
      const r = await gw.createPixCharge(body);
      if (!it.run.record(expectStatus(r.exchange, 200, { requirements: ['GW-PIXIN-CREATE-200', ...exercisedBy(body)] }))) return;
      const data = dataOf(r.json);
      // "(creation) | POST /api/v1/pix/in/qrcode | valid request | pending"
      it.run.record(ensureChargeStatus(r.json, 'pending', { requirements: ['GW-PIXIN-CREATE-PENDING'], exchanges: [r.exchange] }));
      // "fees | integer | cents"
      it.run.record(verifyIntegerCents(data?.fees, { requirements: ['GW-PIXIN-FEES-INT', 'GW-MONEY-CENTS'], exchanges: [r.exchange], pointer: '/data/fees', subject: 'data.fees' }));
      const id = data?.id;
      if (typeof id !== 'string' || id === '') return; // the schema already reported it (GW-PIXIN-RESP-ID)
      // "200: same envelope as creation, with the current status"; "Sandbox: PIX payments never confirm by themselves"
      const g = await gw.getPixCharge(id);
      if (!it.run.record(expectStatus(g.exchange, 200, { requirements: ['GW-PIXIN-GET-200'] }))) return;
      it.run.record(ensureChargeStatus(g.json, 'pending', { requirements: ['GW-PIXIN-GET-CURRENT-STATUS', 'GW-SANDBOX-NO-AUTO-CONFIRM'], exchanges: [g.exchange] }));
      it.run.record(verifyLookupId(g.json, id, { requirements: ['GW-PIXIN-GET-200'], exchanges: [r.exchange, g.exchange] }));
      // "never confirm by themselves", at every lookup, not only the first one (issue 15)
      const again = await gw.getPixCharge(id);
      it.run.record(ensureNeverConfirmedBySelf([g, again].map((l) => ({ status: dataOf(l.json)?.status, exchange: l.exchange })), { exchanges: [r.exchange] }));
    }, { numRuns: 6 });
  },
);

check(
  'valid charge bodies with and without each optional part (customer details, billingAddress, items, trackingParameters, splits, postbackUrl) are all created',
  {
    id: 'gateway.pixin.optional-parts',
    api: 'gateway',
    area: AREA,
    requirements: [
      'GW-PIXIN-CREATE-200',
      'GW-PIXIN-CUSTOMER-OPTIONAL',
      'GW-PIXIN-ITEMS-OPTIONAL',
      'GW-PIXIN-TRACKING-OPTIONAL',
      'GW-PIXIN-SPLITS-OPTIONAL',
      'GW-ADDR-STRINGS',
      'GW-PIXIN-ITEM-FIELDS',
      'GW-TRACK-ACCEPTED',
      'GW-PIXIN-SPLIT-EMAIL',
      'GW-PIXIN-POSTBACK-URI',
    ],
    severity: 'normal',
  },
  async (t) => {
    const gw = t.gateway();
    // every part as the tables give it; each one valid ("Required: no" for all of them). Where a
    // field's format is not stated, the most common form: zipCode as 8 digits (as generators/customers.ts),
    // phone as +55 + DDD + number (the form the PIX key row names)
    const values: Record<ChargePart, (body: PixChargeRequest) => void> = {
      'customer-details': (b) => Object.assign(b.customer, { name: 'Maria Silva', email: 'maria.silva@example.com', phone: '+5511987654321' }),
      'billing-address': (b) => Object.assign(b.customer, { billingAddress: { street: 'Avenida Paulista', number: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zipCode: '01310100' } }),
      items: (b) => Object.assign(b, { items: [{ title: 'T-shirt', tangible: true, quantity: 2, amountInCents: 400 }, { title: 'E-book', tangible: false, quantity: 1, amountInCents: 200 }] }),
      tracking: (b) => Object.assign(b, { trackingParameters: { src: 'site', sck: 'checkout', utm_source: 'newsletter', utm_campaign: 'black-friday', utm_medium: 'email', utm_content: 'banner', utm_term: 'pix' } }),
      // a callback URI with a query string: TrackingParameters even reads "the query string … of postbackUrl"
      postback: (b) => Object.assign(b, { postbackUrl: `${t.callbackUrl(receiverPath())}?order=${uniqueTag('o')}&utm_source=newsletter` }),
      splits: (b) => Object.assign(b, { splits: [{ email: t.target.gateway?.splitEmail ?? '', percentage: 10 }] }),
    };
    // splits need "another company on the platform" (GATEWAY_SPLIT_EMAIL)
    const parts = (Object.keys(values) as ChargePart[]).filter((p) => p !== 'splits' || t.target.gateway?.splitEmail);
    if (!parts.includes('splits')) t.run.note('GATEWAY_SPLIT_EMAIL not configured: splits are left out of this check');
    const body = (sent: readonly ChargePart[]): PixChargeRequest => {
      const b: PixChargeRequest = { amountInCents: 1000, customer: { documentType: 'cpf', document: freshCpf() } };
      for (const p of sent) values[p](b);
      return b;
    };
    const send = async (sent: readonly ChargePart[]) => (await gw.createPixCharge(body(sent))).exchange;
    const [minimal, full, ...singles] = await Promise.all([
      send([]),
      send(parts),
      ...parts.map((p) => send([p])),
      ...parts.map((p) => send(parts.filter((q) => q !== p))),
    ]);
    if (!minimal || !full) return;
    const withPart: Partial<Record<ChargePart, (typeof singles)[number]>> = {};
    const withoutPart: Partial<Record<ChargePart, (typeof singles)[number]>> = {};
    parts.forEach((p, i) => {
      const added = singles[i];
      const removed = singles[parts.length + i];
      if (added) withPart[p] = added;
      if (removed) withoutPart[p] = removed;
    });
    t.run.record(judgeChargeParts({ minimal, full, withPart, withoutPart }, { requirements: ['GW-PIXIN-CREATE-200'] }));
    t.run.note(`minimal body: HTTP ${minimal.response?.status ?? '—'}; full body: HTTP ${full.response?.status ?? '—'}`);
  },
);

check(
  'pix.emv is a dynamic BR Code with a correct CRC and the charged amount, and pix.qrCode is a PNG of exactly pix.emv',
  {
    id: 'gateway.pixin.emv-and-qr',
    api: 'gateway',
    area: AREA,
    requirements: ['GW-PIXIN-EMV', 'GW-PIXIN-DYNAMIC-QR', 'GW-PIXIN-QRCODE-PNG', 'GW-PIXIN-QRCODE-MATCHES-EMV'],
    severity: 'critical',
  },
  async (t) => {
    const amount = fc.oneof(fc.constantFrom(100, 101, 1050, 99_999), fc.integer({ min: 100, max: 1_000_000 }));
    await t.property('charges of various amounts', amount, async (amountInCents, it) => {
      const r = await it.gateway().createPixCharge(pixChargeBody({ amountInCents }));
      if (!it.run.record(expectStatus(r.exchange, 200, { requirements: ['GW-PIXIN-CREATE-200'] }))) return;
      const pix = dataOf(r.json)?.pix;
      const emv = isRecord(pix) ? pix.emv : undefined;
      const qrCode = isRecord(pix) ? pix.qrCode : undefined;
      // "pix.emv | string | copy-and-paste payload (EMV standard)"; "dynamic QR code"
      it.run.record(verifyEmv(emv, { requirements: ['GW-PIXIN-EMV', 'GW-PIXIN-DYNAMIC-QR'], exchanges: [r.exchange], pointer: '/data/pix/emv', subject: 'data.pix.emv' }, { amountCents: amountInCents }));
      // "pix.qrCode | string | PNG image, base64"; the image is the QR code of the same charge.
      // The image and the copy-and-paste string render one QR code: an image that decodes to anything
      // else would make the payer pay something else (GW-PIXIN-QRCODE-MATCHES-EMV, a failure).
      it.run.record(verifyChargeQrCode(qrCode, emv, { requirements: ['GW-PIXIN-QRCODE-PNG'], exchanges: [r.exchange], pointer: '/data/pix/qrCode', subject: 'data.pix.qrCode' }));
    }, { numRuns: 5 });
  },
);

check(
  'a valid alphanumeric CNPJ is accepted (rejecting it is a warning)',
  {
    id: 'gateway.pixin.cnpj-alphanumeric',
    api: 'gateway',
    area: AREA,
    requirements: ['GW-PIXIN-DOC-CNPJ-ALNUM', 'GW-PIXIN-DOC-VALID'],
    severity: 'minor',
  },
  async (t) => {
    // contract README: "the alphanumeric CNPJ … accepting it is expected of a current
    // implementation, so rejecting a valid one is a warning"
    await t.property('alphanumeric CNPJs', cnpjAlphanumeric(), async (document, it) => {
      const r = await it.gateway().createPixCharge(pixChargeBody({ customer: { documentType: 'cnpj', document } }));
      it.run.record(expectAlphanumericCnpjAccepted(r.exchange, document, { requirements: ['GW-PIXIN-DOC-CNPJ-ALNUM'] }));
      it.run.note(`alphanumeric CNPJ ${document}: HTTP ${r.status}`);
    }, { numRuns: 3 });
  },
);

check(
  'amountInCents: 100 is accepted, 99 and non-integers are refused (4xx), never a 5xx',
  {
    id: 'gateway.pixin.amount-boundaries',
    api: 'gateway',
    area: AREA,
    requirements: ['GW-PIXIN-AMOUNT-MIN', 'GW-PIXIN-AMOUNT-INT', 'GW-PIXIN-CREATE-200', 'GW-PIXIN-CREATE-400', 'GW-MONEY-CENTS'],
    severity: 'critical',
  },
  async (t) => {
    const gw = t.gateway();
    // "amountInCents | integer | yes | minimum 100"; "400 invalid body"; maximum amounts: not shown
    // (fresh charges, independent: sent together, judged in order)
    const amounts = boundaryAmounts(100);
    const answers = await t.all(amounts, (a) => gw.createPixCharge({ ...pixChargeBody(), amountInCents: a.value }));
    for (const [k, a] of amounts.entries()) {
      const r = answers[k] as ApiResponse;
      if (a.validity === 'valid') {
        if (t.run.record(expectStatus(r.exchange, 200, { requirements: ['GW-PIXIN-AMOUNT-MIN', 'GW-PIXIN-CREATE-200', 'GW-PIXIN-ITEMS-OPTIONAL', 'GW-PIXIN-TRACKING-OPTIONAL'] }))) {
          t.run.record(ensureChargeStatus(r.json, 'pending', { requirements: ['GW-PIXIN-CREATE-PENDING'], exchanges: [r.exchange] }));
        }
      } else if (a.validity === 'invalid') {
        const rule = a.label === 'min-1' || a.label === 'zero' || a.label === 'negative' ? 'GW-PIXIN-AMOUNT-MIN' : 'GW-PIXIN-AMOUNT-INT';
        t.run.record(expectInvalidBodyRejected(r.exchange, { requirements: [rule, 'GW-PIXIN-CREATE-400'], subject: `amountInCents ${a.label} (${show(a.value)})` }));
      } else {
        // unspecified (huge amounts): any answer but a 5xx
        t.run.record(expectStatus(r.exchange, ['2xx', '4xx'], { requirements: ['GW-PIXIN-CREATE-400'] }));
        t.run.note(`amountInCents ${a.label} (${show(a.value)}): HTTP ${r.status}`);
      }
    }
  },
);

check(
  'description: 140 ASCII characters are accepted, 141 are refused',
  {
    id: 'gateway.pixin.description-boundaries',
    api: 'gateway',
    area: AREA,
    requirements: ['GW-PIXIN-DESC-MAX', 'GW-PIXIN-CREATE-400'],
    severity: 'normal',
  },
  async (t) => {
    const gw = t.gateway();
    const max = TEXT_LIMITS.gatewayDescription;
    // ASCII with letters at both ends (trim-proof), unique per run
    const ascii = (n: number): string => {
      const core = `${uniqueTag('d')}${'x'.repeat(n)}`.slice(0, n - 1);
      return `${core}z`;
    };
    // how characters are counted is not stated (README): multi-byte text is an observation only
    const multiByte = [
      ['140 accented letters (2 UTF-8 bytes each)', 'é'.repeat(max)],
      ['140 emoji (2 UTF-16 units each)', '😀'.repeat(max)],
    ] as const;
    // four fresh charges, independent: sent together, judged in order
    const [at, over, ...multi] = (await t.all([ascii(max), ascii(max + 1), ...multiByte.map(([, text]) => text)], (description) => gw.createPixCharge(pixChargeBody({ description })))) as ApiResponse[];
    // "description | string | no | max 140 the service"
    t.run.record(expectStatus((at as ApiResponse).exchange, 200, { requirements: ['GW-PIXIN-DESC-MAX', 'GW-PIXIN-CREATE-200'] }));
    t.run.record(expectInvalidBodyRejected((over as ApiResponse).exchange, { requirements: ['GW-PIXIN-DESC-MAX', 'GW-PIXIN-CREATE-400'] }));
    for (const [k, [label]] of multiByte.entries()) {
      const r = multi[k] as ApiResponse;
      t.run.record(expectStatus(r.exchange, ['2xx', '4xx'], { requirements: ['GW-PIXIN-DESC-MAX'] }));
      t.run.note(`description of ${label}: HTTP ${r.status}`);
    }
  },
);

check(
  'customers with an invalid, missing or mistyped document are refused (4xx)',
  {
    id: 'gateway.pixin.invalid-customer',
    api: 'gateway',
    area: AREA,
    requirements: ['GW-PIXIN-DOC-VALID', 'GW-PIXIN-DOCTYPE-ENUM', 'GW-PIXIN-CUSTOMER-REQUIRED', 'GW-PIXIN-DOC-DIGITS', 'GW-PIXIN-CUSTOMER-OBJECT', 'GW-PIXIN-CREATE-400'],
    severity: 'critical',
  },
  async (t) => {
    const gw = t.gateway();
    // "PIX … payments require a valid CPF or CNPJ": a CPF whose check digit is wrong, always sent
    const [badCpf] = fc.sample(cpfWithBadCheckDigit(), { numRuns: 1, seed: t.settings.seed });
    // one document per invalid class (check digits of CPF, numeric and alphanumeric CNPJ; one-digit
    // documents and zeros; lengths), every run, concurrently (issue 15)
    const cases = invalidDocumentCases(t.settings.seed).map((c) => ({ ...c, type: c.rule.startsWith('cpf') ? ('cpf' as const) : ('cnpj' as const) }));

    // one body per rule of the customer, every run, concurrently (the property below draws more):
    // "customer | object | yes", "documentType | string | yes", "`cpf` or `cnpj`", and "digits only"
    // broken by letters (not the ambiguous punctuation of a formatted CPF, observed below)
    const [validCpf] = fc.sample(cpf(), { numRuns: 1, seed: t.settings.seed + 2 });
    const digits = validCpf ?? freshCpf();
    const { customer: _omitted, ...withoutCustomer } = pixChargeBody();
    const fixedCustomers: { requirement: RequirementId; what: string; body: unknown }[] = [
      { requirement: 'GW-PIXIN-CUSTOMER-OBJECT', what: 'no customer', body: withoutCustomer },
      { requirement: 'GW-PIXIN-CUSTOMER-OBJECT', what: 'customer as a string', body: { ...withoutCustomer, customer: `cpf:${digits}` } },
      { requirement: 'GW-PIXIN-CUSTOMER-REQUIRED', what: 'customer without documentType', body: { ...withoutCustomer, customer: { document: digits, name: 'Maria Silva' } } },
      { requirement: 'GW-PIXIN-DOCTYPE-ENUM', what: 'documentType "rg"', body: { ...withoutCustomer, customer: { documentType: 'rg', document: digits } } },
      { requirement: 'GW-PIXIN-DOC-DIGITS', what: `the CPF ${digits} with letters ("CPF${digits}")`, body: { ...withoutCustomer, customer: { documentType: 'cpf', document: `CPF${digits}` } } },
    ];
    // "digits only" with punctuation: ambiguous (README); judged after the property below
    const [plain] = fc.sample(cpf(), { numRuns: 1, seed: t.settings.seed + 1 });
    // every fixed body is a fresh charge a correct target refuses (the formatted CPF: any answer),
    // independent of the others: the groups are sent together, judged in the order they always were
    const batches: (() => Promise<ApiResponse[]>)[] = [
      async () => [await gw.createPixCharge(pixChargeBody({ customer: { documentType: 'cpf', document: badCpf ?? '52998224724' } }))],
      () => Promise.all(cases.map((c) => gw.createPixCharge(pixChargeBody({ customer: { documentType: c.type, document: c.value } })))),
      () => Promise.all(fixedCustomers.map((c) => gw.createPixCharge(c.body))),
      async () => [await gw.createPixCharge(pixChargeBody({ customer: { documentType: 'cpf', document: formatCpf(plain ?? freshCpf()) } }))],
    ];
    const [[fixed], answers = [], fixedAnswers = [], [formatted]] = (await t.all(batches, (send) => send())) as [[ApiResponse], ApiResponse[], ApiResponse[], [ApiResponse]];
    t.run.record(expectInvalidBodyRejected(fixed.exchange, { requirements: ['GW-PIXIN-DOC-VALID', 'GW-PIXIN-CREATE-400'] }));
    cases.forEach((c, i) => {
      const r = answers[i];
      if (!r) return;
      t.run.record(judgeCustomerDocumentAnswer(r.exchange, c.type, c.value, { requirements: ['GW-PIXIN-DOC-VALID', 'GW-PIXIN-CREATE-400'], subject: `${c.rule} document ${show(c.value)}` }));
    });
    fixedCustomers.forEach((c, i) => {
      const r = fixedAnswers[i];
      if (r) t.run.record(expectInvalidBodyRejected(r.exchange, { requirements: [c.requirement, 'GW-PIXIN-CREATE-400'], subject: c.what }));
    });

    await t.property('invalid customers', invalidPixCustomer(), async (c, it) => {
      const r = await it.gateway().createPixCharge({ ...pixChargeBody(), customer: c.customer });
      const requirement =
        c.kind === 'invalid-document' ? 'GW-PIXIN-DOC-VALID' : c.kind === 'bad-documentType' ? 'GW-PIXIN-DOCTYPE-ENUM' : c.kind === 'documentType-mismatch' ? 'GW-PIXIN-DOC-VALID' : 'GW-PIXIN-CUSTOMER-REQUIRED';
      // a document of the other type (documentType-mismatch) may be accepted: the rule warns then
      it.run.record(expectInvalidCustomerRejected(r.exchange, c.kind, { requirements: [requirement, 'GW-PIXIN-CREATE-400'], subject: `${c.kind} (${c.detail})` }));
      if (c.kind === 'documentType-mismatch') it.run.note(`${c.detail}: HTTP ${r.status}`);
    }, { numRuns: 8 });

    // "digits only" with punctuation: ambiguous (README); either answer is only an observation
    t.run.record(expectStatus(formatted.exchange, ['2xx', '4xx'], { requirements: ['GW-PIXIN-DOC-DIGITS'] }));
    t.run.note(`a valid CPF written with punctuation: HTTP ${formatted.status}`);
  },
);

check(
  'split percentages summing to at most 100 are accepted, above 100 refused',
  {
    id: 'gateway.pixin.split-sum',
    api: 'gateway',
    area: AREA,
    requirements: ['GW-PIXIN-SPLIT-SUM', 'GW-PIXIN-SPLITS-OPTIONAL', 'GW-PIXIN-SPLIT-EMAIL', 'GW-PIXIN-CREATE-400'],
    severity: 'critical',
    needs: ['gateway.split'],
  },
  async (t) => {
    const email = t.target.gateway?.splitEmail;
    if (!email) return t.notRun('gateway.split', 'GATEWAY_SPLIT_EMAIL not configured');
    const gw = t.gateway();
    // "sum over all entries must not exceed 100" — both sides of the limit, always sent
    const fixed: { splits: { email: string; percentage: number }[]; valid: boolean }[] = [
      { splits: [{ email, percentage: 100 }], valid: true },
      { splits: [{ email, percentage: 10 }], valid: true },
      { splits: [{ email, percentage: 100.01 }], valid: false },
      { splits: [{ email, percentage: 50 }, { email, percentage: 50.01 }], valid: false },
    ];
    // fresh charges, independent: sent together, judged in order
    const fixedAnswers = await t.all(fixed, (c) => gw.createPixCharge(pixChargeBody({ splits: c.splits })));
    for (const [k, c] of fixed.entries()) {
      const r = fixedAnswers[k] as ApiResponse;
      const requirements = c.valid ? (['GW-PIXIN-SPLIT-SUM', 'GW-PIXIN-SPLITS-OPTIONAL'] as const) : (['GW-PIXIN-SPLIT-SUM', 'GW-PIXIN-CREATE-400'] as const);
      t.run.record(judgeSplitAnswer(r.exchange, { splits: c.splits, recipient: 'company' }, { requirements }));
    }
    await t.property('split scenarios', splitScenario({ recipientEmail: email, maxEntries: 5 }), async (s, it) => {
      const r = await it.gateway().createPixCharge(pixChargeBody({ splits: s.splits }));
      const requirements = s.validity === 'valid' ? (['GW-PIXIN-SPLIT-SUM'] as const) : (['GW-PIXIN-SPLIT-SUM', 'GW-PIXIN-CREATE-400'] as const);
      it.run.record(judgeSplitAnswer(r.exchange, { splits: s.splits, recipient: 'company' }, { requirements, subject: `${s.kind} (sum ${s.totalHundredths / 100})` }));
    }, { numRuns: 6 });
  },
);

check(
  'splits over 100 % are refused whatever the recipient; a recipient that is no company is reported',
  {
    id: 'gateway.pixin.split-without-recipient',
    api: 'gateway',
    area: AREA,
    requirements: ['GW-PIXIN-SPLIT-SUM', 'GW-PIXIN-SPLIT-EMAIL', 'GW-PIXIN-CREATE-400'],
    severity: 'normal',
  },
  async (t) => {
    const gw = t.gateway();
    const stranger = `${uniqueTag('nobody')}@example.com`;
    // over 100: invalid whether or not the e-mail is a company ("must not exceed 100")
    const overSplits = [{ email: stranger, percentage: 60 }, { email: stranger, percentage: 41 }];
    // "email | e-mail of another company on the platform": the text does not say WHEN an unknown
    // recipient is refused (the split "runs when the payment is confirmed"), so accepting one warns
    const unknownSplits = [{ email: stranger, percentage: 10 }];
    // two fresh charges, independent: sent together, judged in order
    const [over, unknown] = (await t.all([overSplits, unknownSplits], (splits) => gw.createPixCharge(pixChargeBody({ splits })))) as [ApiResponse, ApiResponse];
    t.run.record(judgeSplitAnswer(over.exchange, { splits: overSplits, recipient: 'unknown' }, { requirements: ['GW-PIXIN-SPLIT-SUM', 'GW-PIXIN-CREATE-400'] }));
    t.run.record(judgeSplitAnswer(unknown.exchange, { splits: unknownSplits, recipient: 'unknown' }, { requirements: ['GW-PIXIN-SPLIT-EMAIL'] }));
    t.run.note(`split to a non-company e-mail: HTTP ${unknown.status}`);
  },
);

check(
  'looking up an unknown PIX charge answers 404 {error: NOT_FOUND, message}',
  {
    id: 'gateway.pixin.lookup-unknown',
    api: 'gateway',
    area: AREA,
    requirements: ['GW-PIXIN-GET-404-SHAPE', 'GW-ERR-CODES', 'GW-ERR-SHAPES'],
    severity: 'normal',
  },
  async (t) => {
    const gw = t.gateway();
    // "404 body {error: NOT_FOUND, message}": ids plausible as ids (rules/gateway/errors.ts expectUnknownIdRefused)
    // lookups of unknown ids, independent: sent together, judged in order
    const ids = [randomUUID(), `no-such-charge-${uniqueTag('x')}`, '0'];
    const answers = await t.all(ids, (id) => gw.getPixCharge(id));
    for (const [k, id] of ids.entries()) {
      const r = answers[k] as ApiResponse;
      t.run.record(expectUnknownIdRefused(r.exchange, id, { requirements: ['GW-PIXIN-GET-404-SHAPE', 'GW-ERR-CODES'] }, { body: 'not-found' }));
    }
  },
);

check(
  'sandbox pay: pending → paid with endToEndId; the lookups show paid; paying again answers 400; an unknown charge 404',
  {
    id: 'gateway.pixin.pay-flow',
    api: 'gateway',
    area: AREA,
    requirements: ['GW-PIXIN-PAY-200', 'GW-PIXIN-PAY-PAID', 'GW-PIXIN-GET-CURRENT-STATUS', 'GW-PIXIN-PAY-NOT-PENDING-400', 'GW-PIXIN-PAY-404', 'GW-TXN-LOOKUP-PIX', 'GW-ERR-400-MEANING', 'GW-ERR-SHAPES'],
    severity: 'critical',
  },
  async (t) => {
    const gw = t.gateway();
    const charge = await createPendingCharge(gw, t.run, pixChargeBody({ amountInCents: 1234 }));
    if (!charge) return;
    // "No body. 200: success, message, data{id, status, endToEndId} with status paid"
    // the unknown charge's /pay (judged last) touches nothing of ours: it goes out with ours
    const unknownId = randomUUID();
    const [pay, unknown] = (await t.all([charge.id, unknownId], (id) => gw.payPixCharge(id))) as [ApiResponse, ApiResponse];
    const paid = t.run.record(expectStatus(pay.exchange, 200, { requirements: ['GW-PIXIN-PAY-200'] }));
    if (paid) t.run.record(verifyPaidCharge(pay.json, charge.id, { requirements: ['GW-PIXIN-PAY-PAID', 'GW-PIXIN-PAY-200'], exchanges: [pay.exchange] }));
    // two lookups after /pay (reads, neither changes the charge): sent together, judged in order
    const [get, txn] = (await t.all([() => gw.getPixCharge(charge.id), () => gw.getTransaction(charge.id)], (lookup) => lookup())) as [ApiResponse, ApiResponse];
    // "with the current status"
    if (t.run.record(expectStatus(get.exchange, 200, { requirements: ['GW-PIXIN-GET-200'] })) && paid) {
      t.run.record(ensureChargeStatus(get.json, 'paid', { requirements: ['GW-PIXIN-GET-CURRENT-STATUS'], exchanges: [get.exchange] }));
    }
    // "Generic status lookup for card transactions and PIX charges … Response body: not shown"
    t.run.record(verifyTransactionLookup(txn.exchange, { requirements: ['GW-TXN-LOOKUP-PIX', 'GW-JSON-BODIES'] }));
    t.run.note(`GET /api/v1/transactions/{id} of a paid PIX charge: HTTP ${txn.status}, body keys ${show(isRecord(txn.json) ? Object.keys(txn.json) : txn.json)}, data.status ${show(dataOf(txn.json)?.status)}`);
    // "400 charge no longer pending" — a fixed status
    if (paid) {
      const again = await gw.payPixCharge(charge.id);
      t.run.record(expectStatus(again.exchange, 400, { requirements: ['GW-PIXIN-PAY-NOT-PENDING-400', 'GW-ERR-400-MEANING'] }));
      t.run.record(verifyErrorBody(again.exchange, { requirements: ['GW-ERR-SHAPES'] }));
    }
    // "404 charge not found"
    t.run.record(expectUnknownIdRefused(unknown.exchange, unknownId, { requirements: ['GW-PIXIN-PAY-404', 'GW-ERR-SHAPES'] }, { body: 'either' }));
  },
);
