/**
 * Partner events against their charge (harness/rules/partner/echo.ts): every event type the API
 * sends ("Every state change sends a signed POST": business.pix.created, business.pix.paid through
 * the sandbox pay route, business.pix.canceled through cancel) is judged
 * - against what was sent (relation `partner.echo`, its event cells: amount_cents and external_ref
 *   "returned unchanged … in webhooks"), and
 * - against a lookup of its charge made after it arrived (relation `partner.events-vs-charges`:
 *   amount_cents, e2e_id, external_ref, and the state its type announces).
 * Deliveries reach the run's receiver at `/partner`, shared with other checks: ours are found by the
 * unique label inside their external_ref (or, lacking it, their amount).
 *
 * Requests: three creations (together), one pay and one cancel (together, on different charges),
 * three lookups after the events (together).
 */
import { check } from '../../harness/run/check.js';
import type { PartnerChargeRequest } from '../../harness/http/partner-client.js';
import { chargeOf, echoChargeValues, matchEventsToCharges } from '../../harness/rules/partner/index.js';
import type { Delivery } from '../../harness/webhooks/types.js';
import { distinctiveAmount, is2xx, uniqueRef, waitForEvent, WEBHOOK_WAIT_MS } from './support.js';

const AREA = 'Events against resources';

check('every event carries the values sent and agrees with a lookup of its charge made after it', {
  id: 'partner.events.against-charges',
  api: 'partner',
  area: AREA,
  needs: ['partner.webhooks'],
  rules: [echoChargeValues, matchEventsToCharges],
}, async (t) => {
  const receiver = t.receiver();
  const client = t.partner();
  // distinctive amounts: a delivery that lost its external_ref is still found by its amount
  // (suites/partner/support.ts eventMatcher), so no amount another check sends on purpose (1005,
  // 2999, …) is used here; almost all of them have reais with no exact binary form
  const bodies: { role: 'paid' | 'canceled' | 'pending'; body: PartnerChargeRequest }[] = [
    { role: 'paid', body: { amount_cents: distinctiveAmount(), external_ref: ` ${uniqueRef('ev-paid')} / Ação ` } },
    { role: 'canceled', body: { amount_cents: distinctiveAmount(), external_ref: uniqueRef('ev-canceled') } },
    { role: 'pending', body: { amount_cents: distinctiveAmount(), external_ref: `${uniqueRef('ev-pending')}  ` } },
  ];
  const created = await t.all(bodies, (b) => client.createCharge(b.body));
  const ours = bodies.flatMap((b, i) => {
    const response = created[i]!;
    const charge = response.status === 200 ? chargeOf(response.json) : undefined;
    if (!charge || typeof charge.id !== 'string') {
      t.run.note(`the ${b.role} charge: creation answered HTTP ${response.status}; its events not judged`);
      return [];
    }
    return [{ ...b, id: charge.id }];
  });
  if (ours.length === 0) return t.notRun('partner', 'no charge was created');
  const moves = ours.filter((o) => o.role !== 'pending');
  const moved = await t.all(moves, (o) => (o.role === 'paid' ? client.payCharge(o.id) : client.cancelCharge(o.id)));
  const settled = new Set(moves.filter((_, i) => is2xx(moved[i]!)).map((o) => o.id));
  moves.forEach((o, i) => {
    if (!settled.has(o.id)) t.run.note(`the ${o.role} charge: ${o.role === 'paid' ? 'pay' : 'cancel'} answered HTTP ${moved[i]!.status}; its ${o.role} event not awaited`);
  });
  const expected = ours.flatMap((o) => [
    { o, type: 'business.pix.created' },
    ...(settled.has(o.id) ? [{ o, type: o.role === 'paid' ? 'business.pix.paid' : 'business.pix.canceled' }] : []),
  ]);
  const arrived = await t.all(expected, (e) => waitForEvent(receiver, e.o.body.external_ref!, e.type, WEBHOOK_WAIT_MS, e.o.body.amount_cents));
  // the lookups are made after every awaited event arrived (or the wait ended)
  const lookups = await t.all(ours, (o) => client.getCharge(o.id));
  expected.forEach((e, i) => {
    const delivery: Delivery | undefined = arrived[i];
    if (!delivery) {
      t.run.note(`${e.type} of the ${e.o.role} charge did not arrive within ${WEBHOOK_WAIT_MS / 1000} s (its arrival is judged by the webhooks suite); its cells not tried`);
      return;
    }
    for (const field of ['amount_cents', 'external_ref']) t.judge(echoChargeValues, { field, sent: e.o.body, event: e.type, delivery });
    t.judge(matchEventsToCharges, { event: e.type, delivery, lookup: lookups[ours.indexOf(e.o)]! });
  });
});
