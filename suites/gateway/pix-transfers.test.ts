/**
 * PIX transfers (cash-out): gateway-api.md "POST /api/v1/pix/out/pixkey", "GET
 * /api/v1/pix/out/pixkey/{transferId}", "POST …/{transferId}/complete (sandbox)", "PIX transfer"
 * states and "PIX transfer (response `data`)".
 *
 * Every transfer here is created with the sandbox pair (money-moving routes are refused with
 * production credentials by the HTTP layer anyway). Creating a transfer needs no balance; only
 * `/complete` does ("sandbox balance covers the amount"), and checks that complete one fund it first.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import type { RunTools } from '../../harness/run/check.js';
import type { ApiResponse, TransferRequest } from '../../harness/http/gateway-client.js';
import { ensureErrorShapeIdempotencyConflict, expectStatus, show, verifyEndToEndId, verifyIntegerCents } from '../../harness/rules/index.js';
import { expectInvalidBodyRejected, expectUnknownIdRefused, verifyErrorBody } from '../../harness/rules/gateway/errors.js';
import {
  ensureNotCompletedWithoutBalance,
  ensureTransferStatus,
  expectPixKeyRejected,
  expectTransferCurrencyRejected,
  verifyCreatedTransfer,
  verifyDefaultCurrency,
  verifyIdempotentReplay,
  verifyTransferTimestamps,
} from '../../harness/rules/gateway/pix-transfers.js';
import { boundaryAmounts, idempotencyScenario, malformedPixKey, malformedPixKeyCases, MALFORMED_PIX_KEY_KINDS, PIX_KEY_KINDS, pixKey, validAmount, asciiTextOfLength } from '../../generators/index.js';
import { balanceCents, dataOf, fundSandbox, is2xx, transferBody } from './webhook-steps.js';
import { judgeKeyReuseWithOtherBody } from '../../harness/rules/gateway/states.js';

const AREA = 'PIX transfers';

/** A valid transfer body: any valid key kind, a small amount (creation needs no balance). */
const transferBodies: fc.Arbitrary<TransferRequest> = fc
  .tuple(pixKey(), validAmount({ min: 1, max: 50_000 }))
  .map(([key, amount]) => ({ pixKey: key.value, amount, description: 'paygate-conformance' }));

/**
 * Runs a property and, beside it (after it when the run sends one request at a time), a check's
 * fixed requests: fresh transfers of their own, which neither read nor change what the property's
 * runs create. The property records as it always did; the caller judges the fixed answers after
 * this returns, so the judgements come in the order of the sequential check.
 */
async function besideProperty<R>(t: RunTools, property: () => Promise<void>, send: () => Promise<R>): Promise<R> {
  const [, answers] = await t.all<() => Promise<unknown>, unknown>([property, send], (step) => step());
  return answers as R;
}

check('a transfer without x-idempotency-key is refused', {
  id: 'gateway.pixout.idempotency-key-required', api: 'gateway', area: AREA, severity: 'critical',
  requirements: ['GW-PIXOUT-IDEM-REQUIRED'],
}, async (t) => {
  // "Required header `x-idempotency-key`: a unique value (UUID) per operation."
  // the status for a missing header is not stated: 400/422 pass, another 4xx warns, creating it fails
  const r = await t.gateway().createTransfer(transferBody(101), { idempotencyKey: null });
  t.run.record(expectInvalidBodyRejected(r.exchange, { requirements: ['GW-PIXOUT-IDEM-REQUIRED'], subject: 'a transfer without x-idempotency-key' }));
  t.run.note(`a transfer without x-idempotency-key: HTTP ${r.status}`);
});

check('replaying a transfer with the same key and body returns the original transfer', {
  id: 'gateway.pixout.idempotency-replay', api: 'gateway', area: AREA, severity: 'critical',
  requirements: ['GW-PIXOUT-IDEM-REPLAY', 'GW-PIXOUT-IDEM-NO-DUPLICATE'],
}, async (t) => {
  // "Resending with the same key and body returns the original response and never duplicates the transfer."
  await t.property('replay-same-body', idempotencyScenario(transferBodies, { kind: 'replay-same-body', maxReplays: 2 }), async (scenario, it) => {
    const gw = it.gateway();
    const [first, ...replays] = scenario.bodies;
    const original = await gw.createTransfer(first, { idempotencyKey: scenario.key ?? randomUUID() });
    it.run.record(expectStatus(original.exchange, 200, { requirements: ['GW-PIXOUT-CREATE-200'] }));
    if (!is2xx(original) || typeof dataOf(original)?.id !== 'string') return;
    for (const body of replays) {
      const replay = await gw.createTransfer(body, { idempotencyKey: scenario.key ?? null });
      it.run.record(verifyIdempotentReplay(original, replay, { requirements: ['GW-PIXOUT-IDEM-REPLAY', 'GW-PIXOUT-IDEM-NO-DUPLICATE'] }));
    }
  }, { numRuns: 3 });
});

check('the same idempotency key with a different body gives 409 IDEMPOTENCY_CONFLICT', {
  id: 'gateway.pixout.idempotency-conflict', api: 'gateway', area: AREA, severity: 'critical',
  requirements: ['GW-PIXOUT-IDEM-CONFLICT-409', 'GW-ERR-409-MEANING', 'GW-ERR-CODES'],
}, async (t) => {
  // "The same key with a different body gives 409 (`IDEMPOTENCY_CONFLICT`)."
  // bodies that differ in ONE field only (issue 15: a fingerprint over the amount alone passes
  // bodies that differ everywhere): same key, same amount, another pixKey; then another amount.
  // Their keys are their own, so they go out beside the property and are judged after it.
  const gw = t.gateway();
  const base = transferBody(130);
  const variants: TransferRequest[] = [{ ...base, pixKey: randomUUID() }, { ...base, amount: 131 }];
  const sendVariants = async () => {
    const originals = await Promise.all(variants.map(() => randomUUID()).map(async (key) => ({ key, first: await gw.createTransfer(base, { idempotencyKey: key }) })));
    const reused = await Promise.all(originals.map(({ key }, i) => gw.createTransfer(variants[i] as TransferRequest, { idempotencyKey: key })));
    return { originals, reused };
  };
  const { originals, reused } = await besideProperty(t, () => t.property('same-key-different-body', idempotencyScenario(transferBodies, { kind: 'same-key-different-body' }), async (scenario, it) => {
    const gw = it.gateway();
    const key = scenario.key ?? randomUUID();
    const [a, b] = scenario.bodies;
    const first = await gw.createTransfer(a, { idempotencyKey: key });
    it.run.record(expectStatus(first.exchange, 200, { requirements: ['GW-PIXOUT-CREATE-200'] }));
    if (!is2xx(first)) return;
    const second = await gw.createTransfer(b, { idempotencyKey: key });
    const reqs = ['GW-PIXOUT-IDEM-CONFLICT-409', 'GW-ERR-409-MEANING'] as const;
    it.run.record(expectStatus(second.exchange, 409, { requirements: reqs }));
    if (second.status === 409) it.run.record(ensureErrorShapeIdempotencyConflict(second.json, { requirements: ['GW-PIXOUT-IDEM-CONFLICT-409', 'GW-ERR-CODES'], exchanges: [second.exchange] }));
  }, { numRuns: 3 }), sendVariants);
  originals.forEach(({ first }, i) => {
    const second = reused[i];
    const firstId = dataOf(first)?.id;
    t.run.record(expectStatus(first.exchange, 200, { requirements: ['GW-PIXOUT-CREATE-200'] }));
    if (!second || !is2xx(first) || typeof firstId !== 'string') return;
    t.run.record(judgeKeyReuseWithOtherBody(second, firstId, { subject: i === 0 ? 'the same key, the same amount, another pixKey' : 'the same key, the same pixKey, another amount' }));
  });
});

check('all five PIX key kinds are accepted', {
  id: 'gateway.pixout.key-formats', api: 'gateway', area: AREA, severity: 'critical',
  requirements: ['GW-PIXOUT-KEY-FORMATS', 'GW-PIXOUT-CREATE-200'],
}, async (t) => {
  // "pixKey | string | yes | CPF (digits), CNPJ (digits), e-mail, phone with +55 prefix, or random key (UUID)"
  for (const kind of PIX_KEY_KINDS) {
    await t.property(`valid ${kind} key`, pixKey({ kind }), async (key, it) => {
      const r = await it.gateway().createTransfer(transferBody(150, { pixKey: key.value }));
      it.run.record(expectStatus(r.exchange, 200, { requirements: ['GW-PIXOUT-KEY-FORMATS', 'GW-PIXOUT-CREATE-200'] }));
      const data = dataOf(r);
      if (is2xx(r) && data && data.pixKey !== key.value) {
        it.run.note(`${kind} key ${show(key.value)} echoed as data.pixKey ${show(data.pixKey)}`);
      }
    }, { numRuns: 2 });
  }
});

check('malformed PIX keys are refused', {
  id: 'gateway.pixout.key-malformed', api: 'gateway', area: AREA,
  requirements: ['GW-PIXOUT-KEY-INVALID-REJECTED', 'GW-PIXOUT-KEY-FORMATS', 'GW-PIXOUT-CREATE-400'],
}, async (t) => {
  // A key matching none of the five formats breaks the format sentence itself as much as the
  // rejection one (the GW-PIXOUT-KEY-FORMATS entry: such a key "must be refused"), so findings name
  // both; borderline forms stay warnings (expectPixKeyRejected).
  // every kind, three variants each, whatever the property draws (a fault may concern one kind only,
  // e.g. e-mail keys with an "@")
  // plus one key per invalid class of every document and key rule (issue 15: check digits, one-digit
  // documents, each way a UUID breaks), sent concurrently
  const drawn = MALFORMED_PIX_KEY_KINDS.flatMap((kind) => fc.sample(malformedPixKey({ kind }), { numRuns: 3, seed: t.settings.seed }));
  const fixed = [...drawn, ...malformedPixKeyCases(t.settings.seed).map((c) => ({ kind: c.rule, value: c.value }))];
  const keys = fixed.filter((k, i) => fixed.findIndex((o) => o.value === k.value) === i);
  const answers = await Promise.all(keys.map((key) => t.gateway().createTransfer(transferBody(150, { pixKey: key.value }))));
  keys.forEach((key, i) => {
    const r = answers[i];
    if (!r) return;
    t.run.record(expectPixKeyRejected(r.exchange, key, { requirements: ['GW-PIXOUT-KEY-INVALID-REJECTED', 'GW-PIXOUT-KEY-FORMATS', 'GW-PIXOUT-CREATE-400'], subject: `${key.kind} key ${show(key.value)}` }));
    t.run.note(`${key.kind} key ${show(key.value)}: HTTP ${r.status}`);
  });
  await t.property('malformed key', malformedPixKey(), async (key, it) => {
    const r = await it.gateway().createTransfer(transferBody(150, { pixKey: key.value }));
    // Borderline forms are warnings (GW-PIXOUT-KEY-INVALID-REJECTED / -KEY-FORMATS ambiguity): the text
    // does not say CPF/CNPJ keys need valid check digits, so a bad check digit, or 11 bare digits (a
    // phone without +55 that reads as "CPF (digits)"), may be accepted. Anything else matches none of
    // the five formats and must be refused.
    it.run.record(expectPixKeyRejected(r.exchange, key, { requirements: ['GW-PIXOUT-KEY-INVALID-REJECTED', 'GW-PIXOUT-KEY-FORMATS', 'GW-PIXOUT-CREATE-400'], subject: `${key.kind} key ${show(key.value)}` }));
    it.run.note(`${key.kind} key ${show(key.value)}: HTTP ${r.status}`);
  }, { numRuns: 10 });
});

check('transfer amount: minimum 1 cent, integer', {
  id: 'gateway.pixout.amount', api: 'gateway', area: AREA, severity: 'critical',
  requirements: ['GW-PIXOUT-AMOUNT-MIN', 'GW-PIXOUT-AMOUNT-INT'],
}, async (t) => {
  // "amount | integer | yes | cents, minimum 1"; maximum amounts: not shown (huge values are skipped)
  const cases = boundaryAmounts(1).filter((a) => a.validity !== 'unspecified');
  // the two limits the brief pins explicitly, whatever the property drew
  const gw = t.gateway();
  // "amount | integer": a numeric string and a fractional number, whatever the property drew (issue 15)
  const notIntegers: unknown[] = ['150', 150.5];
  // 0, the non-integers and 1: fresh transfers, independent: sent together (beside the property), judged after it, in order
  const amounts: unknown[] = [0, ...notIntegers, 1];
  const fixed = await besideProperty(t, () => t.property('boundary amount', fc.constantFrom(...cases), async (amount, it) => {
    const r = await it.gateway().createTransfer({ ...transferBody(1), amount: amount.value });
    const reqs = amount.label === 'fractional' || amount.label === 'string' || amount.label === 'null' ? (['GW-PIXOUT-AMOUNT-INT'] as const) : (['GW-PIXOUT-AMOUNT-MIN'] as const);
    if (amount.validity === 'valid') {
      it.run.record(expectStatus(r.exchange, 200, { requirements: [...reqs, 'GW-PIXOUT-CREATE-200'] }));
      const data = dataOf(r);
      if (is2xx(r)) it.run.record(verifyIntegerCents(data?.amount, { requirements: ['GW-PIXOUT-RESP-FIELDS'], subject: 'data.amount', exchanges: [r.exchange] }));
    } else {
      it.run.record(expectInvalidBodyRejected(r.exchange, { requirements: [...reqs, 'GW-PIXOUT-CREATE-400'], subject: `amount ${amount.label} (${show(amount.value)})` }));
    }
  }, { numRuns: cases.length * 2 }), () => t.all(amounts, (amount) => gw.createTransfer({ ...transferBody(1), amount } as unknown as TransferRequest)));
  const [zero, ...rest] = fixed;
  const refused = rest.slice(0, notIntegers.length);
  const one = rest[notIntegers.length] as ApiResponse;
  t.run.record(expectInvalidBodyRejected((zero as ApiResponse).exchange, { requirements: ['GW-PIXOUT-AMOUNT-MIN', 'GW-PIXOUT-CREATE-400'], subject: 'amount 0' }));
  notIntegers.forEach((amount, i) => {
    const r = refused[i];
    if (r) t.run.record(expectInvalidBodyRejected(r.exchange, { requirements: ['GW-PIXOUT-AMOUNT-INT', 'GW-PIXOUT-CREATE-400'], subject: `amount ${show(amount)}` }));
  });
  t.run.record(expectStatus(one.exchange, 200, { requirements: ['GW-PIXOUT-AMOUNT-MIN', 'GW-PIXOUT-CREATE-200'] }));
});

check('transfer currency: only BRL, BRL by default', {
  id: 'gateway.pixout.currency', api: 'gateway', area: AREA,
  requirements: ['GW-PIXOUT-CURRENCY-BRL', 'GW-PIXOUT-CURRENCY-DEFAULT'],
}, async (t) => {
  // "currency | string | no | only `BRL`; default `BRL`"
  const gw = t.gateway();
  // every non-BRL value, each time (a draw of 4 from 4 could miss USD: issue 15), concurrently
  const currencies = ['USD', 'EUR', 'brl', ''];
  // with them, "BRL" and no currency: fresh transfers, independent: sent together, judged in order
  const bodies: Parameters<typeof gw.createTransfer>[0][] = [...currencies.map((currency) => ({ ...transferBody(120), currency })), transferBody(120, { currency: 'BRL' }), transferBody(121)];
  const answers = (await t.all(bodies, (body) => gw.createTransfer(body))) as ApiResponse[];
  const refused = answers.slice(0, currencies.length);
  const [brl, absent] = answers.slice(currencies.length) as [ApiResponse, ApiResponse];
  currencies.forEach((currency, i) => {
    const r = refused[i];
    if (!r) return;
    // lower-case "brl" (case normalised) and "" (read as absent, so the BRL default) harm no one: the rule warns
    t.run.record(expectTransferCurrencyRejected(r.exchange, currency, { requirements: ['GW-PIXOUT-CURRENCY-BRL', 'GW-PIXOUT-CREATE-400'], subject: `currency ${show(currency)}` }));
    t.run.note(`currency ${show(currency)}: HTTP ${r.status}`);
  });
  t.run.record(expectStatus(brl.exchange, 200, { requirements: ['GW-PIXOUT-CURRENCY-BRL', 'GW-PIXOUT-CREATE-200'] }));
  t.run.record(expectStatus(absent.exchange, 200, { requirements: ['GW-PIXOUT-CURRENCY-DEFAULT', 'GW-PIXOUT-CREATE-200'] }));
  const id = dataOf(absent)?.id;
  if (typeof id === 'string') {
    // the transfer resource has no documented currency field; when the lookup shows one, it must be BRL
    const lookup = await gw.getTransfer(id);
    t.run.record(verifyDefaultCurrency(lookup.json, { requirements: ['GW-PIXOUT-CURRENCY-DEFAULT'], exchanges: [absent.exchange, lookup.exchange] }));
    t.run.note(`lookup of a transfer created without currency shows data.currency = ${show(dataOf(lookup)?.currency)}`);
  }
});

check('transfer description: 140 characters accepted, 141 refused', {
  id: 'gateway.pixout.description-max', api: 'gateway', area: AREA,
  requirements: ['GW-PIXOUT-DESC-MAX'],
}, async (t) => {
  // "description | string | no | max 140 the service" (ASCII at the limit; multi-byte counting is not stated)
  const gw = t.gateway();
  // two fresh transfers at the limit, independent: sent together (beside the property), judged after it, in order
  const [at, over] = (await besideProperty(t, () => t.property('description length', fc.constantFrom(140, 141).chain((n) => asciiTextOfLength(n)), async (text, it) => {
    const r = await it.gateway().createTransfer(transferBody(130, { description: text }));
    if (text.length <= 140) it.run.record(expectStatus(r.exchange, 200, { requirements: ['GW-PIXOUT-DESC-MAX', 'GW-PIXOUT-CREATE-200'] }));
    else it.run.record(expectInvalidBodyRejected(r.exchange, { requirements: ['GW-PIXOUT-DESC-MAX', 'GW-PIXOUT-CREATE-400'], subject: `description of ${text.length} characters` }));
  }, { numRuns: 4 }), () => t.all([140, 141], (n) => gw.createTransfer(transferBody(130, { description: 'd'.repeat(n) }))))) as [ApiResponse, ApiResponse];
  t.run.record(expectStatus(at.exchange, 200, { requirements: ['GW-PIXOUT-DESC-MAX', 'GW-PIXOUT-CREATE-200'] }));
  t.run.record(expectInvalidBodyRejected(over.exchange, { requirements: ['GW-PIXOUT-DESC-MAX', 'GW-PIXOUT-CREATE-400'], subject: 'description of 141 characters' }));
});

check('a postbackUrl that is not a URI is refused or accepted, never a server error', {
  id: 'gateway.pixout.postback-uri', api: 'gateway', area: AREA, severity: 'minor',
  requirements: ['GW-PIXOUT-POSTBACK-URI'],
}, async (t) => {
  // "postbackUrl | string (URI) | no | status callback URL". Only the type is given: as for the PIX
  // charge's postbackUrl (general.test.ts, GW-PIXIN-POSTBACK-URI), whether a non-URI is refused is
  // not stated: refused or accepted passes (noted), a 5xx fails.
  const r = await t.gateway().createTransfer(transferBody(110, { postbackUrl: 'not a uri at all' }));
  t.run.record(expectStatus(r.exchange, ['2xx', '4xx'], { requirements: ['GW-PIXOUT-POSTBACK-URI'] }));
  t.run.note(`a transfer with postbackUrl "not a uri at all" answered ${r.status}`);
});

check('sandbox transfer lifecycle: banking_processing, complete, completed with endToEndId, complete twice is 400', {
  id: 'gateway.pixout.lifecycle', api: 'gateway', area: AREA, severity: 'critical',
  requirements: [
    'GW-PIXOUT-CREATE-200', 'GW-PIXOUT-RESP-FIELDS', 'GW-PIXOUT-CREATE-BANKING-PROCESSING', 'GW-PIXOUT-STATUS-ENUM', 'GW-PIXOUT-GET-200',
    'GW-PIXOUT-TIMESTAMPS-ISO', 'GW-PIXOUT-COMPLETE-200', 'GW-PIXOUT-COMPLETE-COMPLETED', 'GW-PIXOUT-ENDTOEND-COMPLETED', 'GW-PIXOUT-COMPLETE-TWICE-400',
  ],
}, async (t) => {
  const gw = t.gateway();
  const amount = 1_234;
  // fund first: "sandbox balance covers the amount" is the condition of /complete
  // a funding failure is recorded as a finding (a valid charge or /pay was refused)
  if (!(await fundSandbox(gw, t.run, amount))) return;
  const key = randomUUID();
  const created = await gw.createTransfer(transferBody(amount, { pixKey: key }));
  t.run.record(expectStatus(created.exchange, 200, { requirements: ['GW-PIXOUT-CREATE-200'] }));
  const data = dataOf(created);
  if (!is2xx(created) || typeof data?.id !== 'string') return;
  const id = data.id;
  // "200: `success`, `message`, `data` (PIX transfer: id, status, amount, netAmount, fees, pixKey)"
  for (const field of ['amount', 'netAmount', 'fees']) {
    t.run.record(verifyIntegerCents(data[field], { requirements: ['GW-PIXOUT-RESP-FIELDS', 'GW-MONEY-CENTS'], subject: `data.${field}`, exchanges: [created.exchange] }));
  }
  // "(creation, sandbox) | … | sandbox credentials; no manual review | banking_processing" (pending: under review)
  t.run.record(verifyCreatedTransfer(created.json, { amount }, { requirements: ['GW-PIXOUT-RESP-FIELDS', 'GW-PIXOUT-CREATE-BANKING-PROCESSING', 'GW-PIXOUT-STATUS-ENUM'], exchanges: [created.exchange] }));
  if (data.pixKey !== key) t.run.note(`data.pixKey ${show(data.pixKey)} differs from the key sent ${show(key)}`);
  const before = await gw.getTransfer(id);
  t.run.record(expectStatus(before.exchange, 200, { requirements: ['GW-PIXOUT-GET-200'] }));
  // processedAt before processing: not shown (absent or null tolerated by the rule)
  t.run.record(verifyTransferTimestamps(before.json, { requirements: ['GW-PIXOUT-TIMESTAMPS-ISO'], exchanges: [before.exchange] }));
  if (data.status !== 'banking_processing') {
    t.run.note(`the transfer was ${show(data.status)}, not banking_processing: /complete not exercised`);
    return;
  }

  const completed = await gw.completeTransfer(id);
  // "200: `success`, `message`, `data{id, status, endToEndId}` with status `completed`; fires `transfer_completed`"
  t.run.record(expectStatus(completed.exchange, 200, { requirements: ['GW-PIXOUT-COMPLETE-200', 'GW-PIXOUT-COMPLETE-COMPLETED'] }));
  if (!is2xx(completed)) return;
  const completedData = dataOf(completed);
  t.run.record(ensureTransferStatus(completed.json, 'completed', { requirements: ['GW-PIXOUT-COMPLETE-200', 'GW-PIXOUT-COMPLETE-COMPLETED'], exchanges: [completed.exchange] }, 'complete'));
  t.run.record(verifyEndToEndId(completedData?.endToEndId, { requirements: ['GW-PIXOUT-COMPLETE-200'], subject: '/complete data.endToEndId', exchanges: [completed.exchange] }));

  const after = await gw.getTransfer(id);
  t.run.record(expectStatus(after.exchange, 200, { requirements: ['GW-PIXOUT-GET-200'] }));
  const afterData = dataOf(after);
  if (afterData) {
    t.run.record(ensureTransferStatus(after.json, 'completed', { requirements: ['GW-PIXOUT-COMPLETE-COMPLETED', 'GW-PIXOUT-GET-200'], exchanges: [completed.exchange, after.exchange] }, 'lookup'));
    // "endToEndId | string | on lookup; present once completed"
    t.run.record(verifyEndToEndId(afterData.endToEndId, { requirements: ['GW-PIXOUT-ENDTOEND-COMPLETED'], subject: 'lookup data.endToEndId', exchanges: [after.exchange] }));
    t.run.record(verifyTransferTimestamps(after.json, { requirements: ['GW-PIXOUT-TIMESTAMPS-ISO'], exchanges: [after.exchange] }));
  }
  // "400 already completed or canceled."
  const again = await gw.completeTransfer(id);
  t.run.record(expectStatus(again.exchange, 400, { requirements: ['GW-PIXOUT-COMPLETE-TWICE-400'] }));
  t.run.record(verifyErrorBody(again.exchange, { requirements: ['GW-ERR-SHAPES'] }));
});

check('unknown transfers: lookup and complete answer 404 NOT_FOUND', {
  id: 'gateway.pixout.not-found', api: 'gateway', area: AREA,
  requirements: ['GW-PIXOUT-GET-404-SHAPE', 'GW-PIXOUT-COMPLETE-404'],
}, async (t) => {
  const gw = t.gateway();
  // one unknown id each, so the lookup and the /complete cannot meet: sent together, judged in order
  const [id, completeId] = [randomUUID(), randomUUID()];
  const [get, complete] = (await t.all([() => gw.getTransfer(id), () => gw.completeTransfer(completeId)], (send) => send())) as [ApiResponse, ApiResponse];
  // "404 body `{error: NOT_FOUND, message}`"
  t.run.record(expectUnknownIdRefused(get.exchange, id, { requirements: ['GW-PIXOUT-GET-404-SHAPE'] }, { body: 'not-found' }));
  // "404 not found." (body shape not pinned for /complete)
  t.run.record(expectUnknownIdRefused(complete.exchange, completeId, { requirements: ['GW-PIXOUT-COMPLETE-404'] }, { body: 'any' }));
});

check('complete is refused when the sandbox balance does not cover the amount', {
  id: 'gateway.pixout.complete-requires-balance', api: 'gateway', area: AREA, severity: 'critical',
  requirements: ['GW-PIXOUT-COMPLETE-BALANCE'],
}, async (t) => {
  const gw = t.gateway();
  // "banking_processing | POST …/complete (sandbox) | not already completed or canceled; sandbox balance covers the amount | completed"
  // Soundness: the amount is the current balance plus R$ 10 million. Other files running at the same
  // time credit the account with charges of at most a few R$ 10 000 (the atomicity file R$ 1 million),
  // so no interleaving can make this balance cover it; a correct target must refuse.
  const balance = await balanceCents(gw, t.run);
  if (balance === undefined) return t.notRun('gateway', 'the sandbox balance could not be read');
  const amount = Math.max(balance, 0) + 1_000_000_000;
  const created = await gw.createTransfer(transferBody(amount));
  const id = dataOf(created)?.id;
  if (!is2xx(created) || typeof id !== 'string') {
    t.run.record(expectStatus(created.exchange, ['2xx', '4xx'], { requirements: ['GW-PIXOUT-CREATE-200'] }));
    // maximum amounts are not shown: refusing a R$ 10 million transfer at creation is the target's right
    return t.notRun('gateway', `the target refused a transfer of ${amount} cents at creation (HTTP ${created.status}); maximum amounts are not shown, so complete-without-balance could not be exercised`);
  }
  const complete = await gw.completeTransfer(id);
  // the status is not stated: any 4xx passes (400 'incompatible state' expected); completing fails
  t.run.record(expectStatus(complete.exchange, '4xx', { requirements: ['GW-PIXOUT-COMPLETE-BALANCE'] }));
  if (complete.status !== 400 && complete.status >= 400 && complete.status <= 499) t.run.note(`complete without covering balance answered ${complete.status}`);
  const lookup = await gw.getTransfer(id);
  t.run.record(ensureNotCompletedWithoutBalance(lookup.json, amount, { requirements: ['GW-PIXOUT-COMPLETE-BALANCE'], exchanges: [complete.exchange, lookup.exchange] }));
});
