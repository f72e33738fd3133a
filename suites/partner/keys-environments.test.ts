/**
 * API keys, environments and accounts. partner-cashin-api.md "Authentication": "Every request
 * carries `Authorization: Bearer <API_KEY>`"; "Key prefix `ak_test_` selects sandbox; `ak_live_`
 * selects production."; "What the service does": "Sandbox and production share the same address;
 * the key prefix decides the environment. Their data is independent."; "Errors": 401 missing/invalid
 * key, 403 "simulate payment in production", 404 "belongs to another account".
 */
import fc from 'fast-check';
import { check } from '../../harness/run/check.js';
import type { RunTools } from '../../harness/run/check.js';
import type { ApiResponse, PartnerAuthMode } from '../../harness/http/partner-client.js';
import {
  cancelPendingCharge,
  endBaseAddressInV1,
  isolatePartnerData,
  keepAccountsApart,
  PARTNER_CREDENTIAL_MISSING,
  PARTNER_ISOLATION,
  partnerIsolationCell,
  refuseSimulationInProduction,
  refuseWithoutValidKey,
  serveBothEnvironmentsAtOneAddress,
} from '../../harness/rules/partner/index.js';
import type { PartnerIsolationObservation } from '../../harness/rules/partner/index.js';
import { cookieHeaderFrom } from '../../harness/http/auth.js';
import { chargeBody, createCharge, CREATES_CHARGES, judgeListed, LISTS_CHARGES, listCharges, LOOKS_UP, lookupState, mustCreate } from './support.js';

const AREA = 'Keys and environments';

/** The spec's routes these checks name (cells of the isolation relation: harness/rules/partner/isolation-matrix.ts). */
const OPERATIONS = {
  lookup: 'GET /business/pix-charges/{id}',
  cancel: 'POST /business/pix-charges/{id}/cancel',
  pay: 'POST /business/pix-charges/{id}/pay',
  list: 'GET /business/pix-charges',
} as const;
type Crossing = Pick<PartnerIsolationObservation, 'actor' | 'home' | 'kind'>;

/**
 * One request per documented route, authenticated as `auth`, answers in route order. Probes a
 * correct target refuses (401): none changes what another reads, so they are sent together.
 */
async function everyRoute(it: RunTools, auth: PartnerAuthMode, chargeId: string, headers: Record<string, string> = {}): Promise<ApiResponse[]> {
  const c = it.partner();
  const routes: Array<[method: string, path: string, operation: string, json?: unknown]> = [
    ['POST', '/business/pix-charges', 'POST /business/pix-charges', chargeBody('unauth')],
    ['GET', '/business/pix-charges', 'GET /business/pix-charges'],
    ['GET', `/business/pix-charges/${encodeURIComponent(chargeId)}`, 'GET /business/pix-charges/{id}'],
    ['POST', `/business/pix-charges/${encodeURIComponent(chargeId)}/cancel`, 'POST /business/pix-charges/{id}/cancel'],
    ['POST', `/business/pix-charges/${encodeURIComponent(chargeId)}/pay`, 'POST /business/pix-charges/{id}/pay'],
    ['GET', '/business/finance', 'GET /business/finance'],
  ];
  return it.all(routes, ([method, path, operation, json]) => c.send({ method, path, operation, auth, headers, ...(json === undefined ? {} : { json }) }));
}

// "All routes need `Authorization: Bearer <API_KEY>`"; "401 | API key missing, invalid or revoked"
check('every route answers 401 {detail} without an API key, and the charge is untouched', {
  id: 'partner.auth.missing-key-401',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  rules: [...CREATES_CHARGES, ...LOOKS_UP, refuseWithoutValidKey],
}, async (t) => {
  const { id, response } = await mustCreate(t, chargeBody('auth-missing'));
  for (const r of await everyRoute(t, 'none', id)) t.judge(refuseWithoutValidKey, { answer: r, key: 'no Authorization header', everyRoute: true });
  // "Every request carries Authorization: Bearer <API_KEY>. No OAuth, session or SDK.": a cookie the
  // service set on an authenticated answer, replayed without the key, authenticates nothing
  const cookie = cookieHeaderFrom(response.headers['set-cookie']);
  if (cookie !== undefined) {
    t.run.note('the service set a cookie; replayed without a key on every route');
    for (const r of await everyRoute(t, 'none', id, { cookie })) t.judge(refuseWithoutValidKey, { answer: r, key: 'only the session cookie', everyRoute: true, sessionCookie: true });
  }
  const seen = await lookupState(t.run, t.partner(), id);
  t.judge(refuseWithoutValidKey, { untouched: { status: seen.response.status, exchange: seen.response.exchange, state: seen.state }, why: 'after unauthenticated cancel and pay' });
});

/** Keys that are not issued: unknown keys of both prefixes, wrong schemes, malformed headers. */
const invalidAuthorization = fc.oneof(
  fc.stringMatching(/^[0-9a-f]{24,40}$/).map((s) => `Bearer ak_test_${s}`),
  fc.stringMatching(/^[0-9a-f]{24,40}$/).map((s) => `Bearer ak_live_${s}`),
  fc.stringMatching(/^[A-Za-z0-9]{8,40}$/).map((s) => `Bearer ${s}`),
  fc.constantFrom('Bearer ', 'Bearer', 'Basic YWtfdGVzdF86', 'ak_test_', 'Token ak_test_0123456789abcdef01234567'),
);

check('unknown or malformed API keys answer 401 {detail}', {
  id: 'partner.auth.invalid-key-401',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  rules: [...CREATES_CHARGES, refuseWithoutValidKey],
}, async (t) => {
  const { id } = await mustCreate(t, chargeBody('auth-invalid'));
  await t.property('invalid Authorization values', invalidAuthorization, async (authorization, it) => {
    const c = it.partner();
    // three 401 probes: sent together, judged in this order
    const probes: Array<() => Promise<ApiResponse>> = [
      () => c.send({ method: 'GET', path: `/business/pix-charges/${encodeURIComponent(id)}`, operation: 'GET /business/pix-charges/{id}', auth: { authorization } }),
      () => c.send({ method: 'POST', path: '/business/pix-charges', operation: 'POST /business/pix-charges', auth: { authorization }, json: chargeBody('auth-invalid') }),
      () => c.send({ method: 'GET', path: '/business/finance', operation: 'GET /business/finance', auth: { authorization } }),
    ];
    for (const r of await it.all(probes, (probe) => probe())) it.judge(refuseWithoutValidKey, { answer: r, key: `Authorization ${JSON.stringify(authorization)}` });
  }, { numRuns: 6 });
});

// "The version is the `/v1` segment at the end of the base address."
check('the partner base address ends in /v1', {
  id: 'partner.version.v1',
  api: 'partner',
  area: AREA,
  severity: 'minor',
  rules: [endBaseAddressInV1],
}, async (t) => {
  t.judge(endBaseAddressInV1, t.target.partner?.baseUrl ?? '');
});

// "Their data is independent." A sandbox charge must not be visible with the production key and
// vice versa (ensureNotVisibleAcross). "Sandbox and production share the same address" / "use the
// same address and version": both keys are served at the one base address.
check('sandbox and production data are independent (same address, key prefix decides)', {
  id: 'partner.env.isolation',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  needs: ['partner.live'],
  rules: [...CREATES_CHARGES, ...LISTS_CHARGES, serveBothEnvironmentsAtOneAddress, isolatePartnerData, cancelPendingCharge],
}, async (t) => {
  const test = t.partner('test');
  const live = t.partner('live');
  const sandboxCharge = await mustCreate(t, chargeBody('env-test'), test);
  // the production creation is judged by the same-address rule before anything depends on it
  const liveCreated = await createCharge(t.run, live, chargeBody('env-live'));
  t.judge(serveBothEnvironmentsAtOneAddress, { sandbox: sandboxCharge.response, production: liveCreated.response });
  if (!liveCreated.id) return;
  const liveCharge = { id: liveCreated.id };
  // reads only (two cross lookups, then each environment's list): sent together, judged in this order
  const crossLookups: Array<[() => Promise<ApiResponse>, string, Crossing]> = [
    [() => live.getCharge(sandboxCharge.id), 'a sandbox charge looked up with the production key', { actor: 'production', home: 'own-sandbox', kind: 'pending charge' }],
    [() => test.getCharge(liveCharge.id), 'a production charge looked up with the sandbox key', { actor: 'sandbox', home: 'own-production', kind: 'pending charge' }],
  ];
  const lists = [[live, sandboxCharge.id, { actor: 'production', home: 'own-sandbox', kind: 'pending charge' }], [test, liveCharge.id, { actor: 'sandbox', home: 'own-production', kind: 'pending charge' }]] as const;
  const answers = await t.all([...crossLookups.map(([read]) => read), ...lists.map(([client]) => () => client.listCharges({}))], (read) => read());
  for (const [k, [, what, crossing]] of crossLookups.entries()) {
    const r = answers[k] as ApiResponse;
    if (!t.judge(isolatePartnerData, { ...crossing, form: 'by-id', operation: OPERATIONS.lookup, answer: r })) t.run.note(`${what}: HTTP ${r.status}`);
  }
  for (const [k, [, foreign, crossing]] of lists.entries()) {
    const { list, response } = judgeListed(t.run, answers[crossLookups.length + k] as ApiResponse);
    if (list) t.judge(isolatePartnerData, { ...crossing, form: 'list', operation: OPERATIONS.list, list, foreignId: foreign, exchange: response.exchange });
  }
  // leave nothing pending in production
  t.judge(cancelPendingCharge, { kind: 'cancel', answer: await live.cancelCharge(liveCharge.id) });
});

// "POST …/pay (sandbox only) … Production answers 403."; "403 | route unavailable in this environment"
check('the pay simulation answers 403 {detail} with a production key and does not pay', {
  id: 'partner.env.live-pay-403',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  needs: ['partner.live'],
  rules: [...CREATES_CHARGES, ...LOOKS_UP, refuseSimulationInProduction, cancelPendingCharge],
}, async (t) => {
  const live = t.partner('live');
  const { id } = await mustCreate(t, chargeBody('env-live-pay'), live);
  // the 403 is the one documented sign that the ak_live_ prefix selected production ("Key prefix … selects")
  t.judge(refuseSimulationInProduction, { kind: 'pay', answer: await live.payCharge(id) });
  const seen = await lookupState(t.run, live, id);
  if (seen.state !== undefined) t.judge(refuseSimulationInProduction, { kind: 'state', answer: seen.response, state: seen.state });
  if (seen.state === 'pending') t.judge(cancelPendingCharge, { kind: 'cancel', answer: await live.cancelCharge(id) });
});

// "404 | resource not found or belongs to another account"; "Lists the account charges".
check('another account\'s key gets 404 on our charge (lookup, cancel, pay) and does not list it', {
  id: 'partner.auth.other-account-404',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  needs: ['partner.other'],
  rules: [...CREATES_CHARGES, ...LOOKS_UP, ...LISTS_CHARGES, keepAccountsApart, isolatePartnerData],
}, async (t) => {
  const other = t.partner('other');
  const { id } = await mustCreate(t, chargeBody('other-account'));
  // three probes a correct target refuses (404): sent together, judged in this order
  const probes: Array<[() => Promise<ApiResponse>, string]> = [[() => other.getCharge(id), OPERATIONS.lookup], [() => other.cancelCharge(id), OPERATIONS.cancel], [() => other.payCharge(id), OPERATIONS.pay]];
  const answers = await t.all(probes, ([probe]) => probe());
  probes.forEach(([, operation], i) => t.judge(isolatePartnerData, { actor: 'other-account', home: 'own-sandbox', kind: 'pending charge', form: 'by-id', operation, answer: answers[i]! }));
  const seen = await lookupState(t.run, t.partner(), id);
  t.judge(keepAccountsApart, { kind: 'state', answer: seen.response, state: seen.state, why: 'after another account tried to cancel and pay it' });
  const { list, response } = await listCharges(t.run, other);
  if (list) t.judge(isolatePartnerData, { actor: 'other-account', home: 'own-sandbox', kind: 'pending charge', form: 'list', operation: OPERATIONS.list, list, exchange: response.exchange, foreignId: id });
});

// "POST …/pay (sandbox only) … Production answers 403."; "Their data is independent."; "404 |
// resource not found or belongs to another account": the pay simulation by every caller other than
// the charge's sandbox owner, on a sandbox and on a production charge, is refused and pays nothing.
check('the pay simulation is refused to every caller but the sandbox owner, on sandbox and production charges', {
  id: 'partner.env.pay-simulation-isolation',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  needs: ['partner.live'],
  rules: [...CREATES_CHARGES, ...LOOKS_UP, isolatePartnerData, refuseSimulationInProduction, cancelPendingCharge],
}, async (t) => {
  const test = t.partner('test');
  const live = t.partner('live');
  const [sandboxCharge, liveCharge] = await t.all([test, live], (client, i) => createCharge(t.run, client, chargeBody(i === 0 ? 'pay-iso-test' : 'pay-iso-live')));
  if (!sandboxCharge?.id || !liveCharge?.id) return t.notRun('partner.live', 'a charge to call the simulation on could not be created in both environments');
  const ids = { sandbox: sandboxCharge.id, production: liveCharge.id };
  const others = t.target.partner?.otherApiKey !== undefined;
  const calls: { caller: 'production' | 'sandbox' | 'other-account'; resource: 'sandbox' | 'production' }[] = [
    { caller: 'production', resource: 'sandbox' },
    { caller: 'production', resource: 'production' },
    { caller: 'sandbox', resource: 'production' },
    ...(others ? [{ caller: 'other-account' as const, resource: 'sandbox' as const }, { caller: 'other-account' as const, resource: 'production' as const }] : []),
  ];
  const clientOf = { production: live, sandbox: test, 'other-account': others ? t.partner('other') : test };
  // each call is refused and changes nothing: together, judged in order
  const answers = await t.all(calls, (c) => clientOf[c.caller].payCharge(ids[c.resource]));
  calls.forEach((c, i) => {
    const answer = answers[i]!;
    t.judge(isolatePartnerData, { actor: c.caller, home: c.resource === 'sandbox' ? 'own-sandbox' : 'own-production', kind: 'pending charge', form: 'by-id', operation: OPERATIONS.pay, answer });
    t.run.note(`pay of a ${c.resource} charge with the ${c.caller} key: HTTP ${answer.status}`);
  });
  if (!others) t.run.cannotTry(PARTNER_ISOLATION, (['own-sandbox', 'own-production'] as const).map((home) => partnerIsolationCell(OPERATIONS.pay, 'other-account', home, 'pending charge')), PARTNER_CREDENTIAL_MISSING['other-account']);
  // the production charge is still pending: read with its key (and then canceled)
  const liveSeen = await lookupState(t.run, live, ids.production);
  if (liveSeen.state !== undefined) t.judge(refuseSimulationInProduction, { kind: 'state', answer: liveSeen.response, state: liveSeen.state });
  if (liveSeen.state === 'pending') t.judge(cancelPendingCharge, { kind: 'cancel', answer: await live.cancelCharge(ids.production) });
});
