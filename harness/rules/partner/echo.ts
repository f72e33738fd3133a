/**
 * Partner: what comes back, and events against the charge (partner-cashin-api.md "PIX charge",
 * "Webhook event body", "Events"), as two relations derived from specs/partner.openapi.yaml
 * (harness/rules/echo.ts):
 * - {@link PARTNER_ECHO}: every request field of POST /business/pix-charges that the charge (creation
 *   answer, lookup, list) or an event's `data` carries under the same name × each of those paths;
 * - {@link PARTNER_EVENT_RESOURCE}: every event type × every field of its `data` that is a field of
 *   the charge's lookup, plus the state its type announces; each judged against a lookup of the
 *   charge made after the event.
 */
import type { Exchange } from '../../core/exchange.js';
import type { PartnerChargeRequest } from '../../http/partner-client.js';
import { isRecord } from '../../core/json.js';
import { show } from '../judgement.js';
import { defineRule, type Relation } from '../rule.js';
import { specDocument } from '../spec-document.js';
import { attributeFields, below, echoCell, echoedFields, eventCell, requestLeaves, responseLeaves, sameTextLoosely, webhookLeaves } from '../echo.js';
import { answerChargeLookup, carryE2eWhenPaid, chargeOf, verifyChargeAmount, verifyChargeLifetime, verifyExternalRefUnchanged, type Json } from './charges.js';
import { eventOf, shapeEventBodies, type PartnerDelivery } from './webhooks.js';
import type { ErrorAnswer } from './errors.js';

const CHARGES = '/business/pix-charges';
export const CHARGE_RESOURCE = 'PIX charge';
/** The request field that comes back as `expires_at − created_at`. */
const LIFETIME_FIELD = 'expires_in_seconds';
/** The paths a charge's values come back by besides events ("Lists the account charges": its records are charges). */
export const CHARGE_PATHS = ['creation answer', 'lookup', 'list'] as const;
export type ChargePath = (typeof CHARGE_PATHS)[number];

/** The echo cells of the partner spec (pure; pinned by a unit test). */
export function partnerEchoCells(document: Record<string, unknown>): string[] {
  const request = requestLeaves(document, 'POST', CHARGES);
  const creation = responseLeaves(document, 'POST', CHARGES, '200');
  const lookup = responseLeaves(document, 'GET', `${CHARGES}/{id}`, '2XX');
  const answered: Record<ChargePath, string[]> = { 'creation answer': creation, lookup, list: creation };
  const cells = CHARGE_PATHS.flatMap((path) => [
    ...echoedFields(request, answered[path]).map((field) => echoCell(CHARGE_RESOURCE, field, path)),
    // "expires_in_seconds … default 3600" comes back as the charge's expires_at − created_at
    ...(request.includes(LIFETIME_FIELD) && answered[path].includes('expires_at') && answered[path].includes('created_at') ? [echoCell(CHARGE_RESOURCE, LIFETIME_FIELD, path)] : []),
  ]);
  for (const { event, leaves } of webhookLeaves(document)) {
    for (const field of echoedFields(request, below(leaves, 'data'))) cells.push(echoCell(CHARGE_RESOURCE, field, `event ${event}`));
  }
  return cells;
}

export const PARTNER_ECHO: Relation = {
  id: 'partner.echo',
  title: 'Charge values sent, on every path they come back by',
  cells: partnerEchoCells(specDocument('partner')),
};

/** The state each event type announces (the states table: created → pending, paid, canceled). */
export const EVENT_STATE: Readonly<Record<string, string>> = { 'business.pix.created': 'pending', 'business.pix.paid': 'paid', 'business.pix.canceled': 'canceled' };
/** The cell of an event's type read as the state it announces. */
export const STATE_FIELD = 'type (the state it announces)';

/** The events-against-the-charge cells of the partner spec (pure; pinned by a unit test). */
export function partnerEventCells(document: Record<string, unknown>): string[] {
  const lookup = responseLeaves(document, 'GET', `${CHARGES}/{id}`, '2XX');
  return webhookLeaves(document).flatMap(({ event, leaves }) => [
    ...attributeFields(below(leaves, 'data'), lookup).map(({ field }) => eventCell(event, `data.${field}`)),
    ...(event in EVENT_STATE ? [eventCell(event, STATE_FIELD)] : []),
  ]);
}

export const PARTNER_EVENT_RESOURCE: Relation = {
  id: 'partner.events-vs-charges',
  title: 'Events against a lookup of their charge made after them',
  cells: partnerEventCells(specDocument('partner')),
};

/** One text value as a path showed it. */
export interface TextEcho {
  field: 'description' | 'customer_email';
  sent: string | undefined;
  /** the field as the path showed it; `absent` when the object had no such key */
  seen: unknown;
  absent: boolean;
  path: ChargePath;
  exchanges: readonly (Exchange | undefined)[];
}

const TEXT_REQUIREMENT = { description: 'PT-CHARGE-FIELD-DESC', customer_email: 'PT-CHARGE-FIELD-EMAIL' } as const;

/**
 * "description | string | up to 300 the service" and "customer_email | string | optional" (PIX
 * charge): the charge's description and customer e-mail are the ones it was created with:
 * - the same string passes; so does one that differs only by surrounding spaces or Unicode
 *   normalisation (NFC/NFD): how the text is stored is not stated (the caller notes it);
 * - an e-mail that differs only by letter case: WARNING (an address's case is not significant to
 *   most services, the text says nothing);
 * - absent or null on the creation answer while sent: WARNING (the table lists the field, but when a
 *   field is present is not stated); absent on a lookup or list decides nothing (their fields are not
 *   shown);
 * - any other value: FAILURE (cut, re-encoded, another charge's).
 */
export const echoChargeTexts = defineRule({
  name: 'echoChargeTexts',
  requirements: ['PT-CHARGE-FIELD-DESC', 'PT-CHARGE-FIELD-EMAIL'],
  codes: { 'charge.text-changed': 'failure', 'charge.text-omitted': 'warning', 'charge.email-case': 'warning' },
  judge(o: TextEcho, v) {
    if (o.sent === undefined) return v.nothingToJudge();
    v.decides(TEXT_REQUIREMENT[o.field]);
    const { seen, sent } = o;
    if (typeof seen === 'string' && (seen === sent || sameTextLoosely(seen, sent))) return;
    const where = o.path === 'creation answer' ? 'on creation' : o.path === 'lookup' ? 'on lookup' : 'in the list';
    if (seen === undefined || seen === null) {
      if (o.path !== 'creation answer') return v.nothingToJudge();
      return v.find('charge.text-omitted', { title: `the created charge shows no ${o.field} although one was sent`, expected: `${o.field} ${show(sent, 80)}`, actual: `${o.field} ${show(seen)}`, exchanges: o.exchanges });
    }
    if (o.field === 'customer_email' && typeof seen === 'string' && seen.toLowerCase() === sent.toLowerCase()) {
      return v.find('charge.email-case', { title: `customer_email comes back in another letter case ${where}`, expected: `customer_email ${show(sent)}`, actual: `customer_email ${show(seen)}`, exchanges: o.exchanges });
    }
    v.find('charge.text-changed', {
      title: `${o.field} does not come back as sent ${where}`,
      expected: `${o.field} ${show(sent, 320)} (${[...sent].length} characters)`,
      actual: `${o.field} ${show(seen, 320)}${typeof seen === 'string' ? ` (${[...seen].length} characters)` : ''}`,
      exchanges: o.exchanges,
    });
  },
});

/** One echoed value of a charge on one path: the charge as an answer showed it, or one of its events. */
export type ChargeEcho =
  | { field: string; sent: PartnerChargeRequest; path: ChargePath; charge: Json; exchange: Exchange }
  | { field: string; sent: PartnerChargeRequest; event: string; delivery: PartnerDelivery };

/**
 * The echo relation, cell by cell: the value of `field` sent at creation, as one path shows it.
 * Applies the rule of each field's sentence: amount_cents {@link verifyChargeAmount} (answers) and
 * {@link shapeEventBodies} (events), external_ref {@link verifyExternalRefUnchanged} ("returned
 * unchanged on lookups and in webhooks"; a list record without the key decides nothing: its fields are
 * not shown), description and customer_email {@link echoChargeTexts}, expires_in_seconds (sent, or
 * its default 3600) as expires_at − created_at {@link verifyChargeLifetime}.
 */
export const echoChargeValues = defineRule({
  name: 'echoChargeValues',
  requirements: [],
  codes: {},
  uses: [verifyChargeAmount, shapeEventBodies, verifyExternalRefUnchanged, echoChargeTexts, verifyChargeLifetime],
  relation: PARTNER_ECHO,
  judge(o: ChargeEcho, v) {
    const path = 'path' in o ? o.path : `event ${o.event}`;
    const cell = echoCell(CHARGE_RESOURCE, o.field, path);
    if (PARTNER_ECHO.cells.includes(cell)) v.covers(cell);
    const shown: Json | undefined = 'path' in o ? o.charge : isRecord(eventOf(o.delivery)?.data) ? (eventOf(o.delivery)?.data as Json) : undefined;
    const exchanges = 'path' in o ? [o.exchange] : [];
    const where = 'path' in o ? (o.path === 'creation answer' ? 'on creation' : o.path === 'lookup' ? 'on lookup' : 'in the list') : `in the ${o.event} event (delivery #${o.delivery.seq})`;
    switch (o.field) {
      case 'amount_cents':
        if ('path' in o) v.apply(verifyChargeAmount, { charge: o.charge, exchange: o.exchange, sentCents: o.sent.amount_cents, where: where as 'on creation' | 'on lookup' | 'in the list' });
        else v.apply(shapeEventBodies, { delivery: o.delivery, amount: o.sent.amount_cents });
        return;
      case 'external_ref':
        if ('path' in o && o.path === 'list' && !('external_ref' in o.charge)) return v.nothingToJudge();
        v.apply(verifyExternalRefUnchanged, { seen: shown?.external_ref, sent: o.sent.external_ref, where, exchanges });
        return;
      case LIFETIME_FIELD:
        // the lifetime sent (or the default 3600) as expires_at − created_at; a lookup or list without both timestamps shows nothing of it
        if (!('path' in o) || (o.path !== 'creation answer' && (o.charge.expires_at === undefined || o.charge.created_at === undefined))) return v.nothingToJudge();
        v.apply(verifyChargeLifetime, { charge: o.charge, exchange: o.exchange, requestedSeconds: o.sent.expires_in_seconds });
        return;
      case 'description':
      case 'customer_email':
        if (!('path' in o)) return v.nothingToJudge();
        v.apply(echoChargeTexts, { field: o.field, sent: o.sent[o.field], seen: o.charge[o.field], absent: !(o.field in o.charge), path: o.path, exchanges });
        return;
      default:
        return v.nothingToJudge();
    }
  },
});

/** One event of a charge and the lookup of that charge made after it arrived. */
export interface EventAndLookup {
  /** the event type the suite triggered (the delivery may name it otherwise: that is nameEventsAsDocumented's) */
  event: string;
  delivery: PartnerDelivery;
  lookup: ErrorAnswer;
}

/**
 * Events against resources: each field of an event's `data` that states an attribute of the charge
 * equals what a lookup made after the event shows, and the state the event's type announces is the
 * lookup's or one the charge may have left since (business.pix.created: any state, pending moves on;
 * paid and canceled are terminal: the lookup must show them). Applies the rule of each sentence:
 * the state {@link answerChargeLookup}, data.amount_cents {@link shapeEventBodies} (the charge's
 * amount, here as the lookup shows it), data.external_ref {@link verifyExternalRefUnchanged},
 * data.e2e_id of the paid event {@link carryE2eWhenPaid} (created and canceled events precede any
 * payment: their e2e_id is not compared). A field the lookup does not show decides nothing (its
 * fields are "not shown beyond being the current state").
 */
export const matchEventsToCharges = defineRule({
  name: 'matchEventsToCharges',
  requirements: [],
  codes: {},
  uses: [answerChargeLookup, shapeEventBodies, verifyExternalRefUnchanged, carryE2eWhenPaid],
  relation: PARTNER_EVENT_RESOURCE,
  judge(o: EventAndLookup, v) {
    const cells = PARTNER_EVENT_RESOURCE.cells.filter((c) => c.startsWith(`${o.event} · `));
    for (const cell of cells) v.covers(cell);
    const state = EVENT_STATE[o.event];
    const after = `after its ${o.event} event`;
    if (state === undefined || state === 'pending') v.apply(answerChargeLookup, o.lookup);
    else v.apply(answerChargeLookup, { answer: o.lookup, expected: state, why: `${after} (${state} is terminal)` });
    const charge = o.lookup.status >= 200 && o.lookup.status < 300 ? chargeOf(o.lookup.json) : undefined;
    const data = eventOf(o.delivery)?.data;
    if (!charge || !isRecord(data)) return;
    const where = `in the ${o.event} event (delivery #${o.delivery.seq}), against the lookup made ${after}`;
    if (Number.isSafeInteger(charge.amount_cents)) v.apply(shapeEventBodies, { delivery: o.delivery, amount: charge.amount_cents as number });
    if (typeof charge.external_ref === 'string') v.apply(verifyExternalRefUnchanged, { seen: data.external_ref, sent: charge.external_ref, where, exchanges: [o.lookup.exchange] });
    if (o.event === 'business.pix.paid') v.apply(carryE2eWhenPaid, { kind: 'event', e2eId: data.e2e_id, chargeE2eId: charge.e2e_id, where });
  },
});
