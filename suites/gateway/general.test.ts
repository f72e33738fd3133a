/**
 * Statements of gateway-api.md that the area files do not own: the transport ("JSON over HTTPS"),
 * "No body is accepted" on POST /api/auth, and the postbackUrl type. Where the text leaves the
 * handling open, only a 5xx is a failure and what the target chose is recorded as a note.
 */
import { check } from '../../harness/run/check.js';
import type { ApiResponse } from '../../harness/http/gateway-client.js';
import { expectStatus } from '../../harness/rules/status.js';
import { behaveAlikeInBothEnvironments, serveOverHttps, surviveBodyOnTokenExchange } from '../../harness/rules/gateway/general.js';
import { pixChargeBody } from './support.js';

const AREA = 'General';

// "JSON over HTTPS at {base_url}."
check('the base URL is HTTPS', {
  id: 'gateway.general.https', api: 'gateway', area: AREA, severity: 'minor',
  rules: [serveOverHttps],
}, async (t) => {
  const baseUrl = t.target.gateway?.baseUrl ?? '';
  t.judge(serveOverHttps, baseUrl);
  if (!baseUrl.startsWith('https:')) t.run.note(`base URL ${baseUrl} is not HTTPS`);
});

// "POST /api/auth … No body is accepted." Whether a body sent anyway is ignored or refused is not
// stated: both are fine (noted); a 5xx is a failure.
check('a body sent to POST /api/auth is ignored or refused, never a server error', {
  id: 'gateway.general.auth-body', api: 'gateway', area: AREA,
  rules: [surviveBodyOnTokenExchange],
}, async (t) => {
  const r = await t.gateway().auth(undefined, { json: { grant_type: 'client_credentials' } });
  t.judge(surviveBodyOnTokenExchange, r);
  t.run.note(`POST /api/auth with a JSON body answered ${r.status}`);
});

// "postbackUrl | string (URI) | no": whether a string that is no URI is refused is not stated.
check('a postbackUrl that is not a URI is refused or accepted, never a server error', {
  id: 'gateway.general.postback-not-uri', api: 'gateway', area: AREA, severity: 'minor',
  requirements: ['GW-PIXIN-POSTBACK-URI'],
}, async (t) => {
  const r = await t.gateway().createPixCharge(pixChargeBody({ postbackUrl: 'not a uri' }));
  t.run.record(expectStatus(r.exchange, ['2xx', '4xx'], { requirements: ['GW-PIXIN-POSTBACK-URI'] }));
  t.run.note(`a PIX charge with postbackUrl "not a uri" answered ${r.status}`);
});

// "The pair used at POST /api/auth selects the environment; everything else behaves identically in
// both." Compared only with requests that move no money: the same invalid PIX charge (refused before
// anything is created) and the same unknown-id lookup must get the same status with either pair.
check('production and sandbox answer the same invalid request and the same lookup alike', {
  id: 'gateway.general.environments-identical', api: 'gateway', area: AREA,
  rules: [behaveAlikeInBothEnvironments], needs: ['gateway.live'],
}, async (t) => {
  const invalid = { amountInCents: 99, customer: { documentType: 'cpf', document: '52998224725' } };
  const unknownId = `conformance-unknown-${Date.now()}`;
  const sandbox = t.gateway();
  const live = t.gateway('live');
  // four independent requests (an invalid charge refused before anything is created, an unknown id):
  // sent together (up to --concurrency), compared afterwards in the order listed
  const [sandboxInvalid, liveInvalid, sandboxLookup, liveLookup] = await t.all(
    [() => sandbox.createPixCharge(invalid), () => live.createPixCharge(invalid), () => sandbox.getPixCharge(unknownId), () => live.getPixCharge(unknownId)],
    (send) => send(),
  );
  const pairs = [
    { what: 'a PIX charge of 99 cents (below the minimum)', sandbox: sandboxInvalid as ApiResponse, live: liveInvalid as ApiResponse },
    { what: `GET /api/v1/pix/in/qrcode/${unknownId}`, sandbox: sandboxLookup as ApiResponse, live: liveLookup as ApiResponse },
  ];
  for (const p of pairs) {
    t.judge(behaveAlikeInBothEnvironments, p);
    t.run.note(`${p.what}: sandbox ${p.sandbox.status}, production ${p.live.status}`);
  }
});
