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
import { makeFinding, show } from '../../harness/rules/index.js';
import type { ApiResponse, PartnerAuthMode } from '../../harness/http/partner-client.js';
import { chargeBody, ctxOf, expectError, expectState, is2xx, listCharges, lookupState, mustCreate, status } from './support.js';

const AREA = 'Keys and environments';

/** One request per documented route, authenticated as `auth`. */
async function everyRoute(it: RunTools, auth: PartnerAuthMode, chargeId: string): Promise<ApiResponse[]> {
  const c = it.partner();
  const send = (method: string, path: string, operation: string, json?: unknown): Promise<ApiResponse> =>
    c.send({ method, path, operation, auth, ...(json === undefined ? {} : { json }) });
  return [
    await send('POST', '/business/pix-charges', 'POST /business/pix-charges', chargeBody('unauth')),
    await send('GET', '/business/pix-charges', 'GET /business/pix-charges'),
    await send('GET', `/business/pix-charges/${encodeURIComponent(chargeId)}`, 'GET /business/pix-charges/{id}'),
    await send('POST', `/business/pix-charges/${encodeURIComponent(chargeId)}/cancel`, 'POST /business/pix-charges/{id}/cancel'),
    await send('POST', `/business/pix-charges/${encodeURIComponent(chargeId)}/pay`, 'POST /business/pix-charges/{id}/pay'),
    await send('GET', '/business/finance', 'GET /business/finance'),
  ];
}

// "All routes need `Authorization: Bearer <API_KEY>`"; "401 | API key missing, invalid or revoked"
check('every route answers 401 {detail} without an API key, and the charge is untouched', {
  id: 'partner.auth.missing-key-401',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  requirements: ['PT-AUTH-401', 'PT-AUTH-ROUTES', 'PT-AUTH-BEARER', 'PT-ERR-DETAIL-SHAPE'],
}, async (t) => {
  const { id } = await mustCreate(t, chargeBody('auth-missing'));
  for (const r of await everyRoute(t, 'none', id)) expectError(t.run, r, 401, ['PT-AUTH-401', 'PT-AUTH-ROUTES']);
  expectState(t.run, await lookupState(t.run, t.partner(), id), 'pending', ['PT-AUTH-ROUTES'], 'after unauthenticated cancel and pay');
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
  requirements: ['PT-AUTH-401', 'PT-AUTH-BEARER', 'PT-ERR-DETAIL-SHAPE'],
}, async (t) => {
  const { id } = await mustCreate(t, chargeBody('auth-invalid'));
  await t.property('invalid Authorization values', invalidAuthorization, async (authorization, it) => {
    const c = it.partner();
    for (const r of [
      await c.send({ method: 'GET', path: `/business/pix-charges/${encodeURIComponent(id)}`, operation: 'GET /business/pix-charges/{id}', auth: { authorization } }),
      await c.send({ method: 'POST', path: '/business/pix-charges', operation: 'POST /business/pix-charges', auth: { authorization }, json: chargeBody('auth-invalid') }),
      await c.send({ method: 'GET', path: '/business/finance', operation: 'GET /business/finance', auth: { authorization } }),
    ]) expectError(it.run, r, 401, ['PT-AUTH-401']);
  }, { numRuns: 6 });
});

// "The version is the `/v1` segment at the end of the base address."
check('the partner base address ends in /v1', {
  id: 'partner.version.v1',
  api: 'partner',
  area: AREA,
  severity: 'minor',
  requirements: ['PT-VERSION-V1'],
}, async (t) => {
  const base = t.target.partner?.baseUrl ?? '';
  if (!/\/v1\/?$/.test(base)) {
    t.run.record(makeFinding(ctxOf(['PT-VERSION-V1']), { code: 'config.version', title: 'the configured partner base address does not end in /v1', severity: 'warning', expected: '{partner_base_url} ending in /v1', actual: base }));
  }
});

// "Their data is independent." A sandbox charge must not be visible with the production key and
// vice versa. The status of such a lookup is not stated beyond "404 | resource not found": a 2xx
// showing the charge fails; another 4xx is noted and warned.
check('sandbox and production data are independent (same address, key prefix decides)', {
  id: 'partner.env.isolation',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  needs: ['partner.live'],
  requirements: ['PT-ENV-ISOLATION', 'PT-AUTH-PREFIX-ENV', 'PT-ENV-SAME-ADDRESS', 'PT-VERSION-SAME'],
}, async (t) => {
  const test = t.partner('test');
  const live = t.partner('live');
  const sandboxCharge = await mustCreate(t, chargeBody('env-test'), test);
  const liveCharge = await mustCreate(t, chargeBody('env-live'), live);
  const crossLookups: Array<[ApiResponse, string]> = [
    [await live.getCharge(sandboxCharge.id), 'a sandbox charge looked up with the production key'],
    [await test.getCharge(liveCharge.id), 'a production charge looked up with the sandbox key'],
  ];
  for (const [r, what] of crossLookups) {
    if (is2xx(r)) {
      t.run.record(makeFinding(ctxOf(['PT-ENV-ISOLATION'], [r.exchange]), { code: 'env.shared-data', title: `${what} is visible`, severity: 'failure', expected: 'not found (404): "Their data is independent"', actual: `HTTP ${r.status} ${show(r.json, 200)}` }));
    } else if (!status(t.run, r, 404, ['PT-ENV-ISOLATION', 'PT-ERR-404-UNKNOWN'], 'warning')) t.run.note(`${what}: HTTP ${r.status}`);
  }
  for (const [client, foreign, label] of [[live, sandboxCharge.id, 'production'], [test, liveCharge.id, 'sandbox']] as const) {
    const { list } = await listCharges(t.run, client);
    if (list?.items.some((i) => i.id === foreign)) {
      t.run.record(makeFinding(ctxOf(['PT-ENV-ISOLATION']), { code: 'env.shared-list', title: `the ${label} list shows a charge of the other environment`, severity: 'failure', expected: 'only this environment\'s charges', actual: `charge ${foreign} listed` }));
    }
  }
  // leave nothing pending in production
  status(t.run, await live.cancelCharge(liveCharge.id), '2xx', ['PT-CHARGE-CANCEL-PENDING']);
});

// "POST …/pay (sandbox only) … Production answers 403."; "403 | route unavailable in this environment"
check('the pay simulation answers 403 {detail} with a production key and does not pay', {
  id: 'partner.env.live-pay-403',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  needs: ['partner.live'],
  requirements: ['PT-CHARGE-PAY-PROD-403', 'PT-ERR-403-ENV', 'PT-AUTH-PREFIX-ENV'],
}, async (t) => {
  const live = t.partner('live');
  const { id } = await mustCreate(t, chargeBody('env-live-pay'), live);
  expectError(t.run, await live.payCharge(id), 403, ['PT-CHARGE-PAY-PROD-403', 'PT-ERR-403-ENV']);
  const seen = await lookupState(t.run, live, id);
  if (seen.state === 'paid') {
    t.run.record(makeFinding(ctxOf(['PT-CHARGE-PAY-PROD-403'], [seen.response.exchange]), { code: 'env.live-paid', title: 'the simulation paid a production charge', severity: 'failure', expected: 'the charge stays pending', actual: 'status "paid"' }));
  }
  if (seen.state === 'pending') status(t.run, await live.cancelCharge(id), '2xx', ['PT-CHARGE-CANCEL-PENDING']);
});

// "404 | resource not found or belongs to another account"; "Lists the account charges".
check('another account\'s key gets 404 on our charge (lookup, cancel, pay) and does not list it', {
  id: 'partner.auth.other-account-404',
  api: 'partner',
  area: AREA,
  severity: 'critical',
  needs: ['partner.other'],
  requirements: ['PT-ERR-404-OTHER-ACCOUNT', 'PT-LIST-ACCOUNT-SCOPE', 'PT-ERR-DETAIL-SHAPE'],
}, async (t) => {
  const other = t.partner('other');
  const { id } = await mustCreate(t, chargeBody('other-account'));
  for (const r of [await other.getCharge(id), await other.cancelCharge(id), await other.payCharge(id)]) {
    expectError(t.run, r, 404, ['PT-ERR-404-OTHER-ACCOUNT']);
  }
  expectState(t.run, await lookupState(t.run, t.partner(), id), 'pending', ['PT-ERR-404-OTHER-ACCOUNT'], 'after another account tried to cancel and pay it');
  const { list } = await listCharges(t.run, other);
  if (list?.items.some((i) => i.id === id)) {
    t.run.record(makeFinding(ctxOf(['PT-LIST-ACCOUNT-SCOPE']), { code: 'list.other-account', title: 'another account\'s list shows our charge', severity: 'failure', expected: 'only that account\'s charges', actual: `charge ${id} listed` }));
  }
});
