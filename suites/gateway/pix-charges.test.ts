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
import { show } from '../../harness/rules/judgement.js';
import {
  answerPixChargeLookup,
  answerUnknownPixCharge,
  ensureChargePaid,
  honourPixChargeRequest,
  refusePayOfPaidCharge,
  verifyCreatedPixCharge,
  verifyPixChargeBrCode,
  type ChargePart,
  type ChargePartAnswers,
} from '../../harness/rules/gateway/pix-charges.js';
import { answerTransactionLookup } from '../../harness/rules/gateway/transactions.js';
import { ensureNeverConfirmedBySelf } from '../../harness/rules/gateway/sandbox.js';
import { answerErrorsInDocumentedShape } from '../../harness/rules/gateway/errors.js';
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
import { CREATES_PIX_CHARGES, createPendingCharge, dataOf, freshCpf, isRecord, pixChargeBody, pixChargeRequest, uniqueTag } from './support.js';
import { receiverPath } from './webhook-steps.js';

const AREA = 'PIX charges';

/** The optional parts a generated valid body exercises (each decided as sent or left out). */
const GENERATED_PARTS: readonly ChargePart[] = ['amount', 'document', 'customer-details', 'billing-address', 'items', 'tracking'];

check(
  'a valid PIX charge (generated customers, items, tracking) is created pending with integer fees and looks up as pending',
  {
    id: 'gateway.pixin.create-pending',
    api: 'gateway',
    area: AREA,
    rules: [honourPixChargeRequest, verifyCreatedPixCharge, answerPixChargeLookup, ensureNeverConfirmedBySelf],
    severity: 'critical',
  },
  async (t) => {
    // the minimum (100) is drawn often: "amountInCents | integer | yes | minimum 100"
    const amount = fc.oneof(fc.constant(100), fc.integer({ min: 100, max: 500_000 }));
    await t.property('valid bodies', pixChargeRequest({ amount, customer: { cnpjVariant: 'numeric' } }), async (body, it) => {
      const gw = it.gateway();
      const r = await gw.createPixCharge(body);
      if (!it.judge(honourPixChargeRequest, { case: 'valid', body, answer: r, exercises: GENERATED_PARTS })) return;
      // "(creation) | POST /api/v1/pix/in/qrcode | valid request | pending"; "fees | integer | cents"
      it.judge(verifyCreatedPixCharge, r);
      const id = dataOf(r.json)?.id;
      if (typeof id !== 'string' || id === '') return;
      // "200: same envelope as creation, with the current status"; "Sandbox: PIX payments never confirm by themselves"
      const g = await gw.getPixCharge(id);
      if (!it.judge(answerPixChargeLookup, { answer: g, id, expected: { status: 'pending', why: 'on lookup right after creation' } })) return;
      // "never confirm by themselves", at every lookup, not only the first one (issue 15)
      const again = await gw.getPixCharge(id);
      it.judge(ensureNeverConfirmedBySelf, { lookups: [g, again].map((l) => ({ status: dataOf(l.json)?.status, exchange: l.exchange })), creation: r.exchange });
    }, { numRuns: 6 });
  },
);

check(
  'valid charge bodies with and without each optional part (customer details, billingAddress, items, trackingParameters, splits, postbackUrl) are all created',
  {
    id: 'gateway.pixin.optional-parts',
    api: 'gateway',
    area: AREA,
    rules: [honourPixChargeRequest],
    severity: 'normal',
  },
  async (t) => {
    const gw = t.gateway();
    // every part as the tables give it; each one valid ("Required: no" for all of them). Where a
    // field's format is not stated, the most common form: zipCode as 8 digits (as generators/customers.ts),
    // phone as +55 + DDD + number (the form the PIX key row names)
    const values: Partial<Record<ChargePart, (body: PixChargeRequest) => void>> = {
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
      for (const p of sent) values[p]?.(b);
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
    const answers: ChargePartAnswers = { minimal, full, withPart: {}, withoutPart: {} };
    parts.forEach((p, i) => {
      const added = singles[i];
      const removed = singles[parts.length + i];
      if (added) answers.withPart[p] = added;
      if (removed) answers.withoutPart[p] = removed;
    });
    t.judge(honourPixChargeRequest, { case: 'parts', answers });
    t.run.note(`minimal body: HTTP ${minimal.response?.status ?? '—'}; full body: HTTP ${full.response?.status ?? '—'}`);
  },
);

check(
  'pix.emv is a dynamic BR Code with a correct CRC and the charged amount, and pix.qrCode is a PNG of exactly pix.emv',
  {
    id: 'gateway.pixin.emv-and-qr',
    api: 'gateway',
    area: AREA,
    rules: [honourPixChargeRequest, verifyPixChargeBrCode],
    severity: 'critical',
  },
  async (t) => {
    const amount = fc.oneof(fc.constantFrom(100, 101, 1050, 99_999), fc.integer({ min: 100, max: 1_000_000 }));
    await t.property('charges of various amounts', amount, async (amountInCents, it) => {
      const body = pixChargeBody({ amountInCents });
      const r = await it.gateway().createPixCharge(body);
      if (!it.judge(honourPixChargeRequest, { case: 'valid', body, answer: r })) return;
      // "pix.emv | string | copy-and-paste payload (EMV standard)"; "dynamic QR code"; "pix.qrCode |
      // string | PNG image, base64": the image and the copy-and-paste string render one QR code
      it.judge(verifyPixChargeBrCode, { answer: r, amountCents: amountInCents });
    }, { numRuns: 5 });
  },
);

check(
  'a valid alphanumeric CNPJ is accepted (rejecting it is a warning)',
  {
    id: 'gateway.pixin.cnpj-alphanumeric',
    api: 'gateway',
    area: AREA,
    rules: [honourPixChargeRequest],
    severity: 'minor',
  },
  async (t) => {
    // contract README: "the alphanumeric CNPJ … accepting it is expected of a current
    // implementation, so rejecting a valid one is a warning"
    await t.property('alphanumeric CNPJs', cnpjAlphanumeric(), async (document, it) => {
      const r = await it.gateway().createPixCharge(pixChargeBody({ customer: { documentType: 'cnpj', document } }));
      it.judge(honourPixChargeRequest, { case: 'document', documentType: 'cnpj', document, what: `the alphanumeric CNPJ ${document}`, answer: r });
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
    rules: [honourPixChargeRequest, verifyCreatedPixCharge],
    severity: 'critical',
  },
  async (t) => {
    const gw = t.gateway();
    // "amountInCents | integer | yes | minimum 100"; "400 invalid body"; maximum amounts: not shown
    // (fresh charges, independent: sent together, judged in order)
    const amounts = boundaryAmounts(100);
    const bodies = amounts.map((a) => ({ ...pixChargeBody(), amountInCents: a.value }));
    const answers = await t.all(bodies, (body) => gw.createPixCharge(body));
    for (const [k, a] of amounts.entries()) {
      const r = answers[k] as ApiResponse;
      if (a.validity === 'valid') {
        if (t.judge(honourPixChargeRequest, { case: 'valid', body: bodies[k] ?? {}, answer: r, exercises: ['amount', 'items', 'tracking'] })) t.judge(verifyCreatedPixCharge, r);
      } else if (a.validity === 'invalid') {
        t.judge(honourPixChargeRequest, { case: 'breaks', path: 'amountInCents', kind: a.label, what: `amountInCents ${a.label} (${show(a.value)})`, answer: r });
      } else {
        // unspecified (huge amounts): any answer but a 5xx
        t.judge(honourPixChargeRequest, { case: 'open', part: 'amount', what: `amountInCents ${a.label} (${show(a.value)}; maximum amounts: not shown)`, answer: r });
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
    rules: [honourPixChargeRequest],
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
    const bodies = [ascii(max), ascii(max + 1), ...multiByte.map(([, text]) => text)].map((description) => pixChargeBody({ description }));
    const [at, over, ...multi] = (await t.all(bodies, (body) => gw.createPixCharge(body))) as ApiResponse[];
    // "description | string | no | max 140 the service"
    t.judge(honourPixChargeRequest, { case: 'valid', body: bodies[0] ?? {}, answer: at as ApiResponse, exercises: ['description'] });
    t.judge(honourPixChargeRequest, { case: 'breaks', path: 'description', kind: 'too-long', what: `a description of ${max + 1} characters`, answer: over as ApiResponse });
    for (const [k, [label]] of multiByte.entries()) {
      const r = multi[k] as ApiResponse;
      t.judge(honourPixChargeRequest, { case: 'open', part: 'description', what: `a description of ${label}`, answer: r });
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
    rules: [honourPixChargeRequest],
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
    // broken by letters (not the ambiguous punctuation of a formatted CPF, judged below)
    const [validCpf] = fc.sample(cpf(), { numRuns: 1, seed: t.settings.seed + 2 });
    const digits = validCpf ?? freshCpf();
    const { customer: _omitted, ...withoutCustomer } = pixChargeBody();
    const fixedCustomers: { path: string; kind: string; what: string; body: unknown }[] = [
      { path: 'customer', kind: 'missing-required', what: 'no customer', body: withoutCustomer },
      { path: 'customer', kind: 'wrong-type', what: 'customer as a string', body: { ...withoutCustomer, customer: `cpf:${digits}` } },
      { path: 'customer.documentType', kind: 'missing-required', what: 'customer without documentType', body: { ...withoutCustomer, customer: { document: digits, name: 'Maria Silva' } } },
      { path: 'customer.documentType', kind: 'bad-enum', what: 'documentType "rg"', body: { ...withoutCustomer, customer: { documentType: 'rg', document: digits } } },
      { path: 'customer.document', kind: 'digits', what: `the CPF ${digits} with letters ("CPF${digits}")`, body: { ...withoutCustomer, customer: { documentType: 'cpf', document: `CPF${digits}` } } },
    ];
    // "digits only" with punctuation: ambiguous (README); judged after the property below
    const [plain] = fc.sample(cpf(), { numRuns: 1, seed: t.settings.seed + 1 });
    const formattedCpf = formatCpf(plain ?? freshCpf());
    const badCpfDocument = badCpf ?? '52998224724';
    // every fixed body is a fresh charge a correct target refuses (the formatted CPF: either answer),
    // independent of the others: the groups are sent together, judged in the order they always were
    const batches: (() => Promise<ApiResponse[]>)[] = [
      async () => [await gw.createPixCharge(pixChargeBody({ customer: { documentType: 'cpf', document: badCpfDocument } }))],
      () => Promise.all(cases.map((c) => gw.createPixCharge(pixChargeBody({ customer: { documentType: c.type, document: c.value } })))),
      () => Promise.all(fixedCustomers.map((c) => gw.createPixCharge(c.body))),
      async () => [await gw.createPixCharge(pixChargeBody({ customer: { documentType: 'cpf', document: formattedCpf } }))],
    ];
    const [[fixed], answers = [], fixedAnswers = [], [formatted]] = (await t.all(batches, (send) => send())) as [[ApiResponse], ApiResponse[], ApiResponse[], [ApiResponse]];
    t.judge(honourPixChargeRequest, { case: 'document', documentType: 'cpf', document: badCpfDocument, what: `the CPF ${badCpfDocument} (a wrong check digit)`, answer: fixed });
    cases.forEach((c, i) => {
      const r = answers[i];
      if (r) t.judge(honourPixChargeRequest, { case: 'document', documentType: c.type, document: c.value, what: `the ${c.rule} document ${show(c.value)}`, answer: r });
    });
    fixedCustomers.forEach((c, i) => {
      const r = fixedAnswers[i];
      if (r) t.judge(honourPixChargeRequest, { case: 'breaks', path: c.path, kind: c.kind, what: c.what, answer: r });
    });

    await t.property('invalid customers', invalidPixCustomer(), async (c, it) => {
      const r = await it.gateway().createPixCharge({ ...pixChargeBody(), customer: c.customer });
      // a document of the other type (documentType-mismatch) may be accepted: the rule warns then
      it.judge(honourPixChargeRequest, { case: 'breaks', path: `customer.${c.field}`, kind: c.kind, what: `${c.kind} (${c.detail})`, answer: r });
      if (c.kind === 'documentType-mismatch') it.run.note(`${c.detail}: HTTP ${r.status}`);
    }, { numRuns: 8 });

    // "digits only" with punctuation: ambiguous (README): a refusal passes, accepting it warns
    t.judge(honourPixChargeRequest, { case: 'document', documentType: 'cpf', document: formattedCpf, what: `the CPF written with punctuation ${formattedCpf}`, answer: formatted });
    t.run.note(`a valid CPF written with punctuation: HTTP ${formatted.status}`);
  },
);

check(
  'split percentages summing to at most 100 are accepted, above 100 refused',
  {
    id: 'gateway.pixin.split-sum',
    api: 'gateway',
    area: AREA,
    rules: [honourPixChargeRequest],
    severity: 'critical',
    needs: ['gateway.split'],
  },
  async (t) => {
    const email = t.target.gateway?.splitEmail;
    if (!email) return t.notRun('gateway.split', 'GATEWAY_SPLIT_EMAIL not configured');
    const gw = t.gateway();
    // "sum over all entries must not exceed 100" — both sides of the limit, always sent
    const fixed: { email: string; percentage: number }[][] = [
      [{ email, percentage: 100 }],
      [{ email, percentage: 10 }],
      [{ email, percentage: 100.01 }],
      [{ email, percentage: 50 }, { email, percentage: 50.01 }],
    ];
    // "percentage | number": a percentage that is no number breaks the Split row, whatever it reads as
    const wrongTyped: { percentage: unknown; what: string }[] = [
      { percentage: '10', what: 'a split percentage sent as the string "10"' },
      { percentage: true, what: 'a split percentage sent as true' },
    ];
    // fresh charges, independent: sent together, judged in order
    const bodies: unknown[] = [...fixed.map((splits) => pixChargeBody({ splits })), ...wrongTyped.map((w) => ({ ...pixChargeBody(), splits: [{ email, percentage: w.percentage }] }))];
    const answers = await t.all(bodies, (body) => gw.createPixCharge(body));
    for (const [k, splits] of fixed.entries()) {
      t.judge(honourPixChargeRequest, { case: 'split', split: { splits, recipient: 'company' }, what: `splits ${show(splits.map((s) => s.percentage))}`, answer: answers[k] as ApiResponse });
    }
    for (const [k, w] of wrongTyped.entries()) {
      t.judge(honourPixChargeRequest, { case: 'breaks', path: 'splits.0.percentage', kind: 'wrong-type', what: w.what, answer: answers[fixed.length + k] as ApiResponse });
    }
    await t.property('split scenarios', splitScenario({ recipientEmail: email, maxEntries: 5 }), async (s, it) => {
      const r = await it.gateway().createPixCharge(pixChargeBody({ splits: s.splits }));
      it.judge(honourPixChargeRequest, { case: 'split', split: { splits: s.splits, recipient: 'company' }, what: `${s.kind} (sum ${s.totalHundredths / 100})`, answer: r });
    }, { numRuns: 6 });
  },
);

check(
  'splits over 100 % are refused whatever the recipient; a recipient that is no company is reported',
  {
    id: 'gateway.pixin.split-without-recipient',
    api: 'gateway',
    area: AREA,
    rules: [honourPixChargeRequest],
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
    t.judge(honourPixChargeRequest, { case: 'split', split: { splits: overSplits, recipient: 'unknown' }, what: 'splits of 60 % and 41 % to an e-mail of no company', answer: over });
    t.judge(honourPixChargeRequest, { case: 'split', split: { splits: unknownSplits, recipient: 'unknown' }, what: 'a split of 10 % to an e-mail of no company', answer: unknown });
    t.run.note(`split to a non-company e-mail: HTTP ${unknown.status}`);
  },
);

check(
  'looking up an unknown PIX charge answers 404 {error: NOT_FOUND, message}',
  {
    id: 'gateway.pixin.lookup-unknown',
    api: 'gateway',
    area: AREA,
    rules: [answerUnknownPixCharge],
    severity: 'normal',
  },
  async (t) => {
    const gw = t.gateway();
    // "404 body {error: NOT_FOUND, message}": ids plausible as ids
    // lookups of unknown ids, independent: sent together, judged in order
    const ids = [randomUUID(), `no-such-charge-${uniqueTag('x')}`, '0'];
    const answers = await t.all(ids, (id) => gw.getPixCharge(id));
    for (const [k, id] of ids.entries()) t.judge(answerUnknownPixCharge, { route: 'lookup', id, answer: answers[k] as ApiResponse });
  },
);

check(
  'sandbox pay: pending → paid with endToEndId; the lookups show paid; paying again answers 400; an unknown charge 404',
  {
    id: 'gateway.pixin.pay-flow',
    api: 'gateway',
    area: AREA,
    rules: [...CREATES_PIX_CHARGES, ensureChargePaid, answerPixChargeLookup, answerTransactionLookup, refusePayOfPaidCharge, answerErrorsInDocumentedShape, answerUnknownPixCharge],
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
    const paid = t.judge(ensureChargePaid, { answer: pay, chargeId: charge.id });
    // two lookups after /pay (reads, neither changes the charge): sent together, judged in order
    const [get, txn] = (await t.all([() => gw.getPixCharge(charge.id), () => gw.getTransaction(charge.id)], (lookup) => lookup())) as [ApiResponse, ApiResponse];
    // "with the current status"
    t.judge(answerPixChargeLookup, { answer: get, id: charge.id, ...(paid ? { expected: { status: 'paid', why: 'after a successful /pay' } } : {}) });
    // "Generic status lookup for card transactions and PIX charges … Response body: not shown"
    t.judge(answerTransactionLookup, { kind: 'pix', answer: txn });
    t.run.note(`GET /api/v1/transactions/{id} of a paid PIX charge: HTTP ${txn.status}, body keys ${show(isRecord(txn.json) ? Object.keys(txn.json) : txn.json)}, data.status ${show(dataOf(txn.json)?.status)}`);
    // "400 charge no longer pending" — a fixed status
    if (paid) {
      const again = await gw.payPixCharge(charge.id);
      t.judge(refusePayOfPaidCharge, again);
      t.judge(answerErrorsInDocumentedShape, again);
      // a refused action leaves the charge where it was: no read goes backwards
      const afterRefusal = await gw.getPixCharge(charge.id);
      t.judge(answerPixChargeLookup, { answer: afterRefusal, id: charge.id, expected: { status: 'paid', why: 'after a refused second /pay' } });
    }
    // "404 charge not found"
    t.judge(answerUnknownPixCharge, { route: 'pay', id: unknownId, answer: unknown });
    t.judge(answerErrorsInDocumentedShape, unknown);
  },
);
