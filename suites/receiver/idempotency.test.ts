/**
 * Duplicates and disorder: "The same event id can arrive more than once; processing is idempotent by
 * event id or `endToEndId`." (gateway) / "…crediting is idempotent by `external_ref` or `e2e_id`."
 * (partner). Acknowledgement is judged always; effects only with the read-back hook (RECEIVER_STATE_URL).
 */
import type { DeliveryObservation } from '../../harness/rules/receiver/index.js';
import { SCHEMES, duties, receiverCheck } from './support.js';
import type { ReceiverSteps } from './support.js';

const BURST = 8;

interface Sent {
  eventIds: string[];
  deliveries: DeliveryObservation[];
}

/** The same paid event delivered twice, one after the other. */
async function replay(r: ReceiverSteps): Promise<Sent> {
  const facts = r.facts();
  const body = r.body(r.paidEvent, facts);
  const first = await r.deliverSigned(`${r.paidEvent} (first delivery)`, body);
  const again = await r.deliverSigned(`${r.paidEvent} (same event id again)`, body);
  return { eventIds: [facts.eventId], deliveries: [first, again] };
}

/** The same paid event delivered BURST times at once. */
async function burst(r: ReceiverSteps): Promise<Sent> {
  const facts = r.facts();
  const body = r.body(r.paidEvent, facts);
  const deliveries = await Promise.all(Array.from({ length: BURST }, (_, i) => r.deliverSigned(`${r.paidEvent} (concurrent duplicate ${i + 1}/${BURST})`, body)));
  return { eventIds: [facts.eventId], deliveries };
}

/** Two paid events with distinct ids for one payment (one end-to-end id; partner: one external_ref too). */
async function sameEndToEnd(r: ReceiverSteps): Promise<Sent> {
  const facts = r.facts();
  const other = { ...facts, eventId: r.facts().eventId };
  const a = await r.deliverSigned(`${r.paidEvent} ${facts.eventId}`, r.body(r.paidEvent, facts));
  const b = await r.deliverSigned(`${r.paidEvent} ${other.eventId} (same end-to-end id)`, r.body(r.paidEvent, other));
  return { eventIds: [facts.eventId, other.eventId], deliveries: [a, b] };
}

/** paid delivered before created, for one payment. */
async function outOfOrder(r: ReceiverSteps): Promise<Sent & { paidId: string }> {
  const facts = r.facts();
  const paid = { ...facts, eventId: r.facts().eventId };
  const a = await r.deliverSigned(`${r.paidEvent} before ${r.createdEvent}`, r.body(r.paidEvent, paid));
  const b = await r.deliverSigned(`${r.createdEvent} after ${r.paidEvent}`, r.body(r.createdEvent, facts));
  return { eventIds: [paid.eventId, facts.eventId], deliveries: [a, b], paidId: paid.eventId };
}

for (const scheme of SCHEMES) {
  receiverCheck(
    scheme,
    'replays, concurrent duplicates, a second event for one end-to-end id and out-of-order deliveries are acknowledged 2xx',
    { id: 'duplicates-acknowledged', rules: [duties(scheme).acknowledge], severity: 'critical' },
    async (r) => {
      for (const sent of [await replay(r), await burst(r), await sameEndToEnd(r), await outOfOrder(r)]) {
        for (const o of sent.deliveries) r.t.judge(r.duties.acknowledge, o);
      }
    },
  );

  receiverCheck(
    scheme,
    'a replayed event id, concurrent duplicates and a second event for one end-to-end id are processed once (read-back)',
    { id: 'processed-once', rules: [duties(scheme).processedOnce], severity: 'critical' },
    async (r) => {
      r.requireState();
      for (const [how, sent] of [['replay', await replay(r)], ['burst', await burst(r)]] as const) {
        const { count } = await r.processedCount(sent.eventIds);
        const exchanges = sent.deliveries.flatMap((o) => (o.exchange ? [o.exchange] : []));
        r.t.run.note(`${how}: read-back count ${count ?? '(not listed)'} for ${sent.eventIds.join(', ')}`);
        r.t.judge(r.duties.processedOnce, { label: `${how}, ${sent.deliveries.length} deliveries of ${sent.eventIds[0]}`, sameBy: 'event-id', eventIds: sent.eventIds, count: count ?? 0, exchanges });
      }
      const pair = await sameEndToEnd(r);
      const { count } = await r.processedCount(pair.eventIds);
      r.t.run.note(`two events for one end-to-end id: read-back count ${count ?? '(not listed)'} in total`);
      const exchanges = pair.deliveries.flatMap((o) => (o.exchange ? [o.exchange] : []));
      r.t.judge(r.duties.processedOnce, { label: 'two paid events with distinct ids for one end-to-end id', sameBy: 'end-to-end-id', eventIds: pair.eventIds, count: count ?? 0, exchanges });
    },
  );

  receiverCheck(
    scheme,
    'paid events are processed, also when delivered before the created event (read-back)',
    { id: 'paid-processed', rules: [duties(scheme).paidProcessed] },
    async (r) => {
      r.requireState();
      const facts = r.facts();
      const inOrder = await r.deliverSigned(r.paidEvent, r.body(r.paidEvent, facts));
      const seen = await r.processedCount([facts.eventId]);
      r.t.judge(r.duties.paidProcessed, { label: r.paidEvent, eventId: facts.eventId, count: seen.count, waitedMs: seen.waitedMs, ...(inOrder.exchange && { exchanges: [inOrder.exchange] }) });
      const sent = await outOfOrder(r);
      const late = await r.processedCount([sent.paidId]);
      const exchanges = sent.deliveries.flatMap((o) => (o.exchange ? [o.exchange] : []));
      r.t.judge(r.duties.paidProcessed, { label: `${r.paidEvent} delivered before ${r.createdEvent}`, eventId: sent.paidId, count: late.count, waitedMs: late.waitedMs, exchanges });
    },
  );
}
