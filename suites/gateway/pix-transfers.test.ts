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
import type { CheckTools, RunTools } from '../../harness/run/check.js';
import type { ApiResponse, TransferRequest } from '../../harness/http/gateway-client.js';
import { show } from '../../harness/rules/judgement.js';
import {
  answerTransferLookup,
  answerUnknownTransfer,
  ensureCreatedTransferProcessing,
  ensureTransferCompleted,
  honourIdempotencyKey,
  honourTransferRequest,
  refuseCompletionOfCompleted,
  refuseKeyReuseWithOtherBody,
  refuseUncoveredCompletion,
  verifyTransferLookupFields,
} from '../../harness/rules/gateway/pix-transfers.js';
import { answerErrorsInDocumentedShape } from '../../harness/rules/gateway/errors.js';
import { boundaryAmounts, idempotencyScenario, malformedPixKey, malformedPixKeyCases, MALFORMED_PIX_KEY_KINDS, PIX_KEY_KINDS, pixKey, validAmount, asciiTextOfLength } from '../../generators/index.js';
import { balanceCents, dataOf, fundSandbox, is2xx, MOVES_MONEY, transferBody } from './webhook-steps.js';
import { readPixBalance } from './support.js';

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
  rules: [honourTransferRequest],
}, async (t) => {
  // "Required header `x-idempotency-key`: a unique value (UUID) per operation."
  // the status for a missing header is not stated: 400/422 pass, another 4xx warns, creating it fails
  const r = await t.gateway().createTransfer(transferBody(101), { idempotencyKey: null });
  t.judge(honourTransferRequest, { case: 'breaks', row: 'x-idempotency-key', kind: 'missing-required', what: 'no x-idempotency-key', answer: r });
  t.run.note(`a transfer without x-idempotency-key: HTTP ${r.status}`);
});

check('replaying a transfer with the same key and body returns the original transfer', {
  id: 'gateway.pixout.idempotency-replay', api: 'gateway', area: AREA, severity: 'critical',
  rules: [honourTransferRequest, honourIdempotencyKey],
}, async (t) => {
  // "Resending with the same key and body returns the original response and never duplicates the transfer."
  await t.property('replay-same-body', idempotencyScenario(transferBodies, { kind: 'replay-same-body', maxReplays: 2 }), async (scenario, it) => {
    const gw = it.gateway();
    const [first, ...replays] = scenario.bodies;
    const original = await gw.createTransfer(first, { idempotencyKey: scenario.key ?? randomUUID() });
    it.judge(honourTransferRequest, { case: 'valid', body: first ?? {}, answer: original });
    if (!is2xx(original) || typeof dataOf(original)?.id !== 'string') return;
    for (const body of replays) {
      const replay = await gw.createTransfer(body, { idempotencyKey: scenario.key ?? null });
      it.judge(honourIdempotencyKey, { case: 'replay', original, replay });
    }
  }, { numRuns: 3 });
});

check('the same idempotency key with a different body gives 409 IDEMPOTENCY_CONFLICT', {
  id: 'gateway.pixout.idempotency-conflict', api: 'gateway', area: AREA, severity: 'critical',
  rules: [honourTransferRequest, refuseKeyReuseWithOtherBody],
}, async (t) => {
  // "The same key with a different body gives 409 (`IDEMPOTENCY_CONFLICT`)."
  // bodies that differ in ONE field only (issue 15: a fingerprint over the amount alone passes
  // bodies that differ everywhere): same key, same amount, another pixKey; then another amount.
  // Their keys are their own, so they go out beside the property and are judged after it.
  const gw = t.gateway();
  const base = transferBody(130);
  const variants: { body: TransferRequest; what: string }[] = [
    { body: { ...base, pixKey: randomUUID() }, what: 'the same amount and another pixKey' },
    { body: { ...base, amount: 131 }, what: 'the same pixKey and another amount' },
  ];
  const sendVariants = async () => {
    const originals = await Promise.all(variants.map(() => randomUUID()).map(async (key) => ({ key, first: await gw.createTransfer(base, { idempotencyKey: key }) })));
    const reused = await Promise.all(originals.map(({ key }, i) => gw.createTransfer((variants[i] as { body: TransferRequest }).body, { idempotencyKey: key })));
    return { originals, reused };
  };
  const { originals, reused } = await besideProperty(t, () => t.property('same-key-different-body', idempotencyScenario(transferBodies, { kind: 'same-key-different-body' }), async (scenario, it) => {
    const gw = it.gateway();
    const key = scenario.key ?? randomUUID();
    const [a, b] = scenario.bodies;
    const first = await gw.createTransfer(a, { idempotencyKey: key });
    it.judge(honourTransferRequest, { case: 'valid', body: a ?? {}, answer: first });
    const firstId = dataOf(first)?.id;
    if (!is2xx(first) || typeof firstId !== 'string') return;
    const second = await gw.createTransfer(b, { idempotencyKey: key });
    it.judge(refuseKeyReuseWithOtherBody, { answer: second, originalId: firstId, what: 'a different body' });
  }, { numRuns: 3 }), sendVariants);
  originals.forEach(({ first }, i) => {
    const second = reused[i];
    const firstId = dataOf(first)?.id;
    t.judge(honourTransferRequest, { case: 'valid', body: base, answer: first });
    if (!second || !is2xx(first) || typeof firstId !== 'string') return;
    t.judge(refuseKeyReuseWithOtherBody, { answer: second, originalId: firstId, what: (variants[i] as { what: string }).what });
  });
});

check('all five PIX key kinds are accepted', {
  id: 'gateway.pixout.key-formats', api: 'gateway', area: AREA, severity: 'critical',
  rules: [honourTransferRequest],
}, async (t) => {
  // "pixKey | string | yes | CPF (digits), CNPJ (digits), e-mail, phone with +55 prefix, or random key (UUID)"
  for (const kind of PIX_KEY_KINDS) {
    await t.property(`valid ${kind} key`, pixKey({ kind }), async (key, it) => {
      const body = transferBody(150, { pixKey: key.value });
      const r = await it.gateway().createTransfer(body);
      it.judge(honourTransferRequest, { case: 'valid', body, answer: r, exercises: ['pixKey'] });
      const data = dataOf(r);
      if (is2xx(r) && data && data.pixKey !== key.value) {
        it.run.note(`${kind} key ${show(key.value)} echoed as data.pixKey ${show(data.pixKey)}`);
      }
    }, { numRuns: 2 });
  }
});

check('malformed PIX keys are refused', {
  id: 'gateway.pixout.key-malformed', api: 'gateway', area: AREA,
  rules: [honourTransferRequest],
}, async (t) => {
  // A key matching none of the five formats breaks the format sentence itself as much as the
  // rejection one (such a key "must be refused"); borderline forms (punctuation, an alphanumeric
  // CNPJ, a UUID without hyphens…) only warn when accepted (the rule reads the key with readPixKey).
  // Every kind, three variants each, whatever the property draws (a fault may concern one kind only,
  // e.g. e-mail keys with an "@"), plus one key per invalid class of every document and key rule
  // (issue 15: check digits, one-digit documents, each way a UUID breaks), sent concurrently.
  const drawn = MALFORMED_PIX_KEY_KINDS.flatMap((kind) => fc.sample(malformedPixKey({ kind }), { numRuns: 3, seed: t.settings.seed }));
  const fixed = [...drawn, ...malformedPixKeyCases(t.settings.seed).map((c) => ({ kind: c.rule, value: c.value }))];
  const keys = fixed.filter((k, i) => fixed.findIndex((o) => o.value === k.value) === i);
  const answers = await Promise.all(keys.map((key) => t.gateway().createTransfer(transferBody(150, { pixKey: key.value }))));
  keys.forEach((key, i) => {
    const r = answers[i];
    if (!r) return;
    t.judge(honourTransferRequest, { case: 'breaks', row: 'pixKey', kind: 'bad-pattern', value: key.value, what: `the ${key.kind} key ${show(key.value)}`, answer: r });
    t.run.note(`${key.kind} key ${show(key.value)}: HTTP ${r.status}`);
  });
  await t.property('malformed key', malformedPixKey(), async (key, it) => {
    const r = await it.gateway().createTransfer(transferBody(150, { pixKey: key.value }));
    it.judge(honourTransferRequest, { case: 'breaks', row: 'pixKey', kind: 'bad-pattern', value: key.value, what: `the ${key.kind} key ${show(key.value)}`, answer: r });
    it.run.note(`${key.kind} key ${show(key.value)}: HTTP ${r.status}`);
  }, { numRuns: 10 });
});

check('transfer amount: minimum 1 cent, integer', {
  id: 'gateway.pixout.amount', api: 'gateway', area: AREA, severity: 'critical',
  rules: [honourTransferRequest],
}, async (t) => {
  // "amount | integer | yes | cents, minimum 1"; maximum amounts: not shown (huge values are skipped)
  const cases = boundaryAmounts(1).filter((a) => a.validity !== 'unspecified');
  const gw = t.gateway();
  // 0, a numeric string, a fractional number (issue 15) and 1, whatever the property drew: fresh
  // transfers, independent: sent together (beside the property), judged after it, in order
  const amounts: { value: unknown; kind: string }[] = [{ value: 0, kind: 'zero' }, { value: '150', kind: 'string' }, { value: 150.5, kind: 'fractional' }, { value: 1, kind: 'min' }];
  const fixed = await besideProperty(t, () => t.property('boundary amount', fc.constantFrom(...cases), async (amount, it) => {
    const body = { ...transferBody(1), amount: amount.value };
    const r = await it.gateway().createTransfer(body as TransferRequest);
    if (amount.validity === 'valid') it.judge(honourTransferRequest, { case: 'valid', body, answer: r, exercises: ['amount'] });
    else it.judge(honourTransferRequest, { case: 'breaks', row: 'amount', kind: amount.label, value: amount.value, what: `amount ${amount.label} (${show(amount.value)})`, answer: r });
  }, { numRuns: cases.length * 2 }), () => t.all(amounts, (amount) => gw.createTransfer({ ...transferBody(1), amount: amount.value } as unknown as TransferRequest)));
  amounts.forEach((amount, i) => {
    const r = fixed[i] as ApiResponse;
    if (amount.kind === 'min') t.judge(honourTransferRequest, { case: 'valid', body: { ...transferBody(1), amount: amount.value }, answer: r, exercises: ['amount'] });
    else t.judge(honourTransferRequest, { case: 'breaks', row: 'amount', kind: amount.kind, value: amount.value, what: `amount ${show(amount.value)}`, answer: r });
  });
});

check('transfer currency: only BRL, BRL by default', {
  id: 'gateway.pixout.currency', api: 'gateway', area: AREA,
  rules: [honourTransferRequest],
}, async (t) => {
  // "currency | string | no | only `BRL`; default `BRL`"
  const gw = t.gateway();
  // every non-BRL value, each time (a draw of 4 from 4 could miss USD: issue 15), concurrently
  const currencies = ['USD', 'EUR', 'brl', ''];
  // with them, "BRL" and no currency: fresh transfers, independent: sent together, judged in order
  const [brlBody, absentBody] = [transferBody(120, { currency: 'BRL' }), transferBody(121)];
  const bodies: Parameters<typeof gw.createTransfer>[0][] = [...currencies.map((currency) => ({ ...transferBody(120), currency })), brlBody, absentBody];
  const answers = (await t.all(bodies, (body) => gw.createTransfer(body))) as ApiResponse[];
  const refused = answers.slice(0, currencies.length);
  const [brl, absent] = answers.slice(currencies.length) as [ApiResponse, ApiResponse];
  currencies.forEach((currency, i) => {
    const r = refused[i];
    if (!r) return;
    // lower-case "brl" (case normalised) and "" (read as absent, so the BRL default) harm no one: the rule warns
    t.judge(honourTransferRequest, { case: 'breaks', row: 'currency', kind: 'bad-enum', value: currency, what: `currency ${show(currency)}`, answer: r });
    t.run.note(`currency ${show(currency)}: HTTP ${r.status}`);
  });
  t.judge(honourTransferRequest, { case: 'valid', body: brlBody, answer: brl, exercises: ['currency'] });
  t.judge(honourTransferRequest, { case: 'valid', body: absentBody, answer: absent, exercises: ['currency'] });
  const id = dataOf(absent)?.id;
  if (typeof id === 'string') {
    // the transfer resource has no documented currency field; when the lookup shows one, it must be BRL
    const lookup = await gw.getTransfer(id);
    t.judge(honourTransferRequest, { case: 'default-currency', lookup });
    t.run.note(`lookup of a transfer created without currency shows data.currency = ${show(dataOf(lookup)?.currency)}`);
  }
});

check('transfer description: 140 characters accepted, 141 refused', {
  id: 'gateway.pixout.description-max', api: 'gateway', area: AREA,
  rules: [honourTransferRequest],
}, async (t) => {
  // "description | string | no | max 140 the service" (ASCII at the limit; multi-byte counting is not stated)
  const gw = t.gateway();
  const judgeLength = (it: RunTools, description: string, r: ApiResponse): void => {
    if (description.length <= 140) it.judge(honourTransferRequest, { case: 'valid', body: transferBody(130, { description }), answer: r, exercises: ['description'] });
    else it.judge(honourTransferRequest, { case: 'breaks', row: 'description', kind: 'too-long', value: description, what: `a description of ${description.length} characters`, answer: r });
  };
  // two fresh transfers at the limit, independent: sent together (beside the property), judged after it, in order
  const texts = ['d'.repeat(140), 'd'.repeat(141)];
  const fixed = (await besideProperty(t, () => t.property('description length', fc.constantFrom(140, 141).chain((n) => asciiTextOfLength(n)), async (text, it) => {
    judgeLength(it, text, await it.gateway().createTransfer(transferBody(130, { description: text })));
  }, { numRuns: 4 }), () => t.all(texts, (description) => gw.createTransfer(transferBody(130, { description }))))) as ApiResponse[];
  texts.forEach((text, i) => judgeLength(t, text, fixed[i] as ApiResponse));
});

check('a postbackUrl that is not a URI is refused or accepted, never a server error', {
  id: 'gateway.pixout.postback-uri', api: 'gateway', area: AREA, severity: 'minor',
  rules: [honourTransferRequest],
}, async (t) => {
  // "postbackUrl | string (URI) | no | status callback URL". Only the type is given: as for the PIX
  // charge's postbackUrl, whether a non-URI is refused is not stated: refused or accepted passes
  // (noted), a 5xx fails.
  const r = await t.gateway().createTransfer(transferBody(110, { postbackUrl: 'not a uri at all' }));
  t.judge(honourTransferRequest, { case: 'open', row: 'postbackUrl', what: 'postbackUrl "not a uri at all"', answer: r });
  t.run.note(`a transfer with postbackUrl "not a uri at all" answered ${r.status}`);
});

check('sandbox transfer lifecycle: banking_processing, complete, completed with endToEndId, complete twice is 400', {
  id: 'gateway.pixout.lifecycle', api: 'gateway', area: AREA, severity: 'critical',
  rules: [...MOVES_MONEY, honourTransferRequest, ensureCreatedTransferProcessing, answerTransferLookup, verifyTransferLookupFields, ensureTransferCompleted, refuseCompletionOfCompleted, answerErrorsInDocumentedShape],
}, async (t) => {
  const gw = t.gateway();
  const amount = 1_234;
  // fund first: "sandbox balance covers the amount" is the condition of /complete
  // a funding failure is recorded as a finding (a valid charge or /pay was refused)
  if (!(await fundSandbox(gw, t.run, amount))) return;
  const key = randomUUID();
  const body = transferBody(amount, { pixKey: key });
  const created = await gw.createTransfer(body);
  // "200: `success`, `message`, `data` (PIX transfer: id, status, amount, netAmount, fees, pixKey)"
  t.judge(honourTransferRequest, { case: 'valid', body, answer: created });
  const data = dataOf(created);
  if (!is2xx(created) || typeof data?.id !== 'string') return;
  const id = data.id;
  // "(creation, sandbox) | … | sandbox credentials; no manual review | banking_processing" (pending: under review)
  t.judge(ensureCreatedTransferProcessing, created);
  if (data.pixKey !== key) t.run.note(`data.pixKey ${show(data.pixKey)} differs from the key sent ${show(key)}`);
  const before = await gw.getTransfer(id);
  t.judge(answerTransferLookup, { answer: before });
  // processedAt before processing: not shown (absent or null tolerated by the rule)
  t.judge(verifyTransferLookupFields, before);
  if (data.status !== 'banking_processing') {
    t.run.note(`the transfer was ${show(data.status)}, not banking_processing: /complete not exercised`);
    return;
  }

  const completed = await gw.completeTransfer(id);
  // "200: `success`, `message`, `data{id, status, endToEndId}` with status `completed`; fires `transfer_completed`"
  t.judge(ensureTransferCompleted, { case: 'answer', answer: completed });
  if (!is2xx(completed)) return;

  const after = await gw.getTransfer(id);
  t.judge(answerTransferLookup, { answer: after });
  // the transition is kept; "endToEndId | string | on lookup; present once completed"
  t.judge(ensureTransferCompleted, { case: 'lookup', lookup: after, completion: completed.exchange });
  t.judge(verifyTransferLookupFields, after);
  // "400 already completed or canceled."
  const again = await gw.completeTransfer(id);
  t.judge(refuseCompletionOfCompleted, again);
  t.judge(answerErrorsInDocumentedShape, again);
  // a refused action leaves the transfer where it was: no read goes backwards
  const afterRefusal = await gw.getTransfer(id);
  t.judge(ensureTransferCompleted, { case: 'lookup', lookup: afterRefusal, completion: completed.exchange });
});

check('unknown transfers: lookup and complete answer 404 NOT_FOUND', {
  id: 'gateway.pixout.not-found', api: 'gateway', area: AREA,
  rules: [answerUnknownTransfer],
}, async (t) => {
  const gw = t.gateway();
  // one unknown id each, so the lookup and the /complete cannot meet: sent together, judged in order
  const [id, completeId] = [randomUUID(), randomUUID()];
  const [get, complete] = (await t.all([() => gw.getTransfer(id), () => gw.completeTransfer(completeId)], (send) => send())) as [ApiResponse, ApiResponse];
  // "404 body `{error: NOT_FOUND, message}`"; "404 not found." (body shape not pinned for /complete)
  t.judge(answerUnknownTransfer, { route: 'lookup', id, answer: get });
  t.judge(answerUnknownTransfer, { route: 'complete', id: completeId, answer: complete });
});

/**
 * An uncovered /complete of a SMALL transfer, for a target where the R$ 10 million one cannot be
 * exercised (refused at creation: maximum amounts are not shown; held: manual review is not shown).
 * It runs in the other sandbox account, which no check funds much, so an amount just above its
 * balance stays under such limits. A concurrent credit may still cover it: a 2xx decides only when it
 * leaves the balance negative (case balance-after). After a refusal, the lookup shows a state other
 * than completed (and, like every answer, a status the spec lists). False when it could not run.
 */
async function completeJustAboveOtherBalance(t: CheckTools): Promise<boolean> {
  if (!t.target.gateway?.other) return false;
  const other = t.gateway('other');
  const before = await readPixBalance(other);
  if (before.cents === undefined) return false;
  const amount = Math.max(before.cents, 0) + 100;
  const body = transferBody(amount);
  const created = await other.createTransfer(body);
  t.judge(honourTransferRequest, { case: 'valid', body, answer: created });
  const id = dataOf(created)?.id;
  if (!is2xx(created) || typeof id !== 'string' || dataOf(created)?.status !== 'banking_processing') return false;
  const complete = await other.completeTransfer(id);
  const after = await readPixBalance(other);
  t.judge(refuseUncoveredCompletion, { case: 'balance-after', answer: complete, amount, before: before.cents, after: after.cents, afterExchange: after.response.exchange });
  t.run.note(`the other sandbox account: a transfer of ${amount} cents over a balance of ${before.cents}: /complete HTTP ${complete.status}`);
  if (is2xx(complete)) return true;
  const lookup = await other.getTransfer(id);
  t.judge(refuseUncoveredCompletion, { case: 'lookup', lookup, amount, completion: complete.exchange });
  return true;
}

check('complete is refused when the sandbox balance does not cover the amount', {
  id: 'gateway.pixout.complete-requires-balance', api: 'gateway', area: AREA, severity: 'critical',
  rules: [...MOVES_MONEY, honourTransferRequest, refuseUncoveredCompletion],
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
    // maximum amounts are not shown: refusing a R$ 10 million transfer at creation is the target's right
    t.judge(honourTransferRequest, { case: 'open', row: 'amount', what: `an amount of ${amount} cents (maximum amounts: not shown)`, answer: created });
    if (await completeJustAboveOtherBalance(t)) return;
    return t.notRun('gateway', `the target refused a transfer of ${amount} cents at creation (HTTP ${created.status}); maximum amounts are not shown, so complete-without-balance could not be exercised`);
  }
  // held for manual review ("no manual review | banking_processing"): its /complete says nothing of the balance
  if (dataOf(created)?.status !== 'banking_processing') await completeJustAboveOtherBalance(t);
  const complete = await gw.completeTransfer(id);
  // the status is not stated: any 4xx passes (400 'incompatible state' expected); completing fails
  t.judge(refuseUncoveredCompletion, { case: 'answer', answer: complete, amount, balance });
  if (complete.status !== 400 && complete.status >= 400 && complete.status <= 499) t.run.note(`complete without covering balance answered ${complete.status}`);
  const lookup = await gw.getTransfer(id);
  t.judge(refuseUncoveredCompletion, { case: 'lookup', lookup, amount, completion: complete.exchange });
});
