/**
 * Partner echo: every charge value sent comes back exact on every path it comes back by
 * (harness/rules/partner/echo.ts, relation `partner.echo`): the creation answer ("200: PIX charge."),
 * the lookup, the list ("Lists the account charges"); the events' cells are tried by
 * suites/partner/events.test.ts, which triggers them. Values: suites/partner/echo-values.ts.
 *
 * Requests: one creation per body (9), one lookup per created charge, one list; all creations go
 * out together, then all lookups with the list.
 */
import { check } from '../../harness/run/check.js';
import type { CheckTools } from '../../harness/run/check.js';
import type { ApiResponse, PartnerChargeRequest } from '../../harness/http/partner-client.js';
import { chargeOf, echoChargeValues, listAccountCharges, locateChargeList, type ChargePath, type Json } from '../../harness/rules/partner/index.js';
import { sameTextLoosely } from '../../harness/rules/echo.js';
import { echoBodies } from './echo-values.js';
import { is2xx } from './support.js';

const AREA = 'Echo';
const FIELDS = ['amount_cents', 'description', 'external_ref', 'customer_email', 'expires_in_seconds'] as const;

/** Hands every field of one charge as `path` showed it to the echo relation, noting the representations the text leaves open. */
function judgeEcho(t: CheckTools, label: string, sent: PartnerChargeRequest, path: ChargePath, charge: Json, response: ApiResponse): void {
  for (const field of FIELDS) {
    t.judge(echoChargeValues, { field, sent, path, charge, exchange: response.exchange });
    const value = sent[field];
    const seen = charge[field];
    if (typeof value === 'string' && typeof seen === 'string' && seen !== value && sameTextLoosely(seen, value)) {
      t.run.note(`${label}: ${field} comes back on the ${path} with its surrounding spaces or Unicode normalisation changed (how text is stored is not stated; accepted)`);
    }
  }
}

check('every charge value sent comes back exact on creation, lookup and list, at its edges and across its range', {
  id: 'partner.echo.answers',
  api: 'partner',
  area: AREA,
  rules: [listAccountCharges, echoChargeValues],
}, async (t) => {
  const client = t.partner();
  const bodies = echoBodies(t.settings.seed);
  // independent charges: created together, judged in order
  const created = await t.all(bodies, (b) => client.createCharge(b.body));
  const ours: { label: string; body: PartnerChargeRequest; id: string }[] = [];
  created.forEach((response, i) => {
    const { label, body, mayBeRefused } = bodies[i]!;
    const charge = response.status === 200 ? chargeOf(response.json) : undefined;
    if (!is2xx(response) || !charge || typeof charge.id !== 'string') {
      // the creation's own answer is judged by the charges suite; a refusal here leaves this body's cells to the others
      t.run.note(`${label}: creation answered HTTP ${response.status}${mayBeRefused ? ` (${mayBeRefused})` : ''}; its values not judged`);
      return;
    }
    judgeEcho(t, label, body, 'creation answer', charge, response);
    ours.push({ label, body, id: charge.id });
  });
  if (ours.length === 0) return;
  const reads = await t.all([...ours.map((o) => () => client.getCharge(o.id)), () => client.listCharges()], (read) => read());
  const list = reads[ours.length]!;
  ours.forEach((o, i) => {
    const lookup = reads[i]!;
    const charge = is2xx(lookup) ? chargeOf(lookup.json) : undefined;
    if (charge) judgeEcho(t, o.label, o.body, 'lookup', charge, lookup);
    else t.run.note(`${o.label}: lookup answered HTTP ${lookup.status}; its values not judged`);
  });
  if (!t.judge(listAccountCharges, { kind: 'answer', answer: list })) return;
  const items = locateChargeList(list.json)?.items ?? [];
  for (const o of ours) {
    const item = items.find((c) => c.id === o.id);
    if (item) judgeEcho(t, o.label, o.body, 'list', item, list);
    else t.run.note(`${o.label}: not in the list read after it (other checks' charges may have pushed it past the 200 records)`);
  }
});
