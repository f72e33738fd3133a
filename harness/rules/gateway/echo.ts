/**
 * Gateway: what comes back, and events against the resources (gateway-api.md "Resources and their
 * fields", "Payload shapes"), as two relations derived from specs/gateway.openapi.yaml
 * (harness/rules/echo.ts):
 * - {@link GATEWAY_ECHO}: every request field that the answer or an event about the same resource
 *   carries under the same name (a transfer's amount and pixKey, a card's brand and last4, a
 *   webhook's url and events) × each of those paths; and what the text says comes back under another
 *   name: a PIX charge's amountInCents in its BR Code ("pix.emv | copy-and-paste payload (EMV
 *   standard)", field 54) and in its events ("transaction{id, amount (integer cents), …}");
 * - {@link GATEWAY_EVENT_RESOURCE}: every event type × every field of its `transaction{…}` /
 *   `transfer{…}` that is a field of the resource's lookup (and a transaction's amount, which the
 *   charge's lookup shows in its BR Code), judged against a lookup made after the event.
 * Event types no documented route can provoke are listed as untryable, with the reason.
 */
import { dataOf, is2xx, isRecord } from '../../core/json.js';
import { show } from '../judgement.js';
import { defineRule } from '../rule.js';
import { findEmvField, parseBrCode, readAmount, verifyBrCode } from '../emv.js';
import { echoCell } from '../echo.js';
import { BR_CODE_PATHS, GATEWAY_ECHO, GATEWAY_EVENT_RESOURCE } from './echo-relations.js';
import type { Answer } from './errors.js';
import { answerTransferLookup, honourTransferRequest } from './pix-transfers.js';
import { answerPixChargeLookup } from './pix-charges.js';
import { echoCardBrandAndLast4 } from './card.js';
import { answerWebhookCreation, shapeEventPayloads, type ExpectedEvent, type GatewayDelivery, type GatewayEvent, type ResourceKind } from './webhooks.js';

export { BALANCE_PATH, BR_CODE_PATHS, GATEWAY_ECHO, GATEWAY_EVENT_RESOURCE, gatewayEchoCells, gatewayEventCells, UNPROVOKABLE_EVENTS } from './echo-relations.js';

/**
 * "pixKey | string | destination key" (PIX transfer): the transfer's pixKey, on creation and on
 * lookup, is the key it was sent with:
 * - the same string passes;
 * - the same key written otherwise (letter case of an e-mail, CPF/CNPJ/phone punctuation, surrounding
 *   spaces): WARNING (how a key is stored is not stated);
 * - absent or another key: FAILURE.
 */
export const echoTransferPixKey = defineRule({
  name: 'echoTransferPixKey',
  requirements: ['GW-PIXOUT-RESP-PIXKEY'],
  codes: { 'pixout.pixkey-changed': 'failure', 'pixout.pixkey-rewritten': 'warning' },
  judge(o: { answer: Answer; sent: string; where: 'on creation' | 'on lookup' }, v) {
    if (!is2xx(o.answer.status)) return v.nothingToJudge();
    v.shows(o.answer.exchange);
    const key = dataOf(o.answer.json)?.pixKey;
    if (key === o.sent) return;
    const canonical = (k: string): string => k.trim().toLowerCase().replace(/[.\-/()\s]/g, '');
    if (typeof key === 'string' && canonical(key) === canonical(o.sent)) {
      return v.find('pixout.pixkey-rewritten', { title: `the transfer's pixKey comes back written otherwise ${o.where}`, expected: `data.pixKey ${show(o.sent)}`, actual: `data.pixKey ${show(key)}`, pointer: '/data/pixKey' });
    }
    v.find('pixout.pixkey-changed', { title: `the transfer's pixKey is not the key sent ${o.where}`, expected: `data.pixKey ${show(o.sent)} ("pixKey | string | destination key")`, actual: `data.pixKey ${show(key)}`, pointer: '/data/pixKey' });
  },
});

/** One echoed value on one path (the cells it tries follow from the resource and the path). */
export type GatewayEcho =
  | { resource: 'PIX transfer'; path: 'creation answer'; body: { pixKey: string; amount: number }; answer: Answer }
  /** `status`: the only state the transfer can be in at the lookup (its creation state, nothing done since) */
  | { resource: 'PIX transfer'; path: 'lookup'; body: { pixKey: string; amount: number }; answer: Answer; status: string }
  | { resource: 'PIX transfer' | 'PIX charge'; path: 'event'; delivery: GatewayDelivery; expected: ExpectedEvent }
  | { resource: 'PIX charge'; path: 'creation answer' | 'lookup'; amountInCents: number; answer: Answer }
  | { resource: 'card charge'; answer: Answer; sent: { brand: string; last4: string } }
  | { resource: 'webhook'; answer: Answer; sent: { url: string; events: readonly string[] } };

/**
 * The echo relation, cell by cell: a value sent, as one path shows it, judged by the rule of each
 * path's sentence: a transfer's amount {@link honourTransferRequest} (creation) and
 * {@link answerTransferLookup} (lookup), its pixKey {@link echoTransferPixKey}, a charge's amount in
 * its BR Code {@link verifyBrCode}, the amounts of events {@link shapeEventPayloads} (the resource's
 * amount, or net of its fees: which one is not stated), a card's brand and last4
 * {@link echoCardBrandAndLast4}, a webhook's url and events {@link answerWebhookCreation}. A creation
 * that was not accepted shows nothing of the echo (the maximum amounts are not shown): nothing is
 * decided.
 */
export const echoGatewayValues = defineRule({
  name: 'echoGatewayValues',
  requirements: [],
  codes: {},
  uses: [honourTransferRequest, answerTransferLookup, echoTransferPixKey, verifyBrCode, shapeEventPayloads, echoCardBrandAndLast4, answerWebhookCreation],
  relation: GATEWAY_ECHO,
  judge(o: GatewayEcho, v) {
    const cover = (resource: string, fields: readonly string[], path: string): void => {
      for (const field of fields) {
        const cell = echoCell(resource, field, path);
        if (GATEWAY_ECHO.cells.includes(cell)) v.covers(cell);
      }
    };
    const covered = (resource: string, path: string): string[] => GATEWAY_ECHO.cells.filter((c) => c.startsWith(`${resource} · `) && c.endsWith(` · ${path}`)).map((c) => c.split(' · ')[1] as string);
    if ('path' in o && o.path === 'event') {
      cover(o.resource, covered(o.resource, `event ${o.expected.event}`), `event ${o.expected.event}`);
      v.apply(shapeEventPayloads, { delivery: o.delivery, expected: o.expected });
      return;
    }
    if (!o.answer.exchange.response) return v.unanswered(o.answer.exchange);
    if (!is2xx(o.answer.status)) return v.nothingToJudge();
    switch (o.resource) {
      case 'PIX transfer':
        cover(o.resource, covered(o.resource, o.path), o.path);
        if (o.path === 'creation answer') v.apply(honourTransferRequest, { case: 'valid', body: o.body, answer: o.answer });
        else v.apply(answerTransferLookup, { answer: o.answer, expected: { status: o.status, amount: o.body.amount, why: 'with nothing done to it since its creation' } });
        v.apply(echoTransferPixKey, { answer: o.answer, sent: o.body.pixKey, where: o.path === 'lookup' ? 'on lookup' : 'on creation' });
        return;
      case 'PIX charge': {
        const path = o.path === 'lookup' ? BR_CODE_PATHS.lookup : BR_CODE_PATHS.creation;
        cover(o.resource, ['amountInCents'], path);
        const pix = dataOf(o.answer.json)?.pix;
        v.apply(verifyBrCode, { api: 'gateway', emv: isRecord(pix) ? pix.emv : undefined, amountCents: o.amountInCents, exchange: o.answer.exchange });
        return;
      }
      case 'card charge':
        cover(o.resource, covered(o.resource, 'creation answer'), 'creation answer');
        v.apply(echoCardBrandAndLast4, { answer: o.answer, sent: o.sent });
        return;
      case 'webhook':
        cover(o.resource, covered(o.resource, 'creation answer'), 'creation answer');
        v.apply(answerWebhookCreation, { answer: o.answer, sent: o.sent });
        return;
    }
  },
});

/** The amount a BR Code carries in field 54, in cents (undefined when it carries none or not in cents). */
export function brCodeAmountCents(emv: unknown): number | undefined {
  if (typeof emv !== 'string') return undefined;
  const parsed = parseBrCode(emv);
  const field = parsed.ok ? findEmvField(parsed.fields, '54') : undefined;
  return field === undefined ? undefined : readAmount(field.value).cents;
}

/** One event of a resource (delivered at the resource's own postbackUrl) and a lookup of it made after the event. */
export interface GatewayEventAndLookup {
  event: GatewayEvent;
  kind: ResourceKind;
  /** the resource's id (the one its creation answered) */
  id: string;
  /** the amount it was created with: compared only when the lookup cannot show one */
  createdAmount: number;
  delivery: GatewayDelivery;
  lookup: Answer;
  /** a paid charge's endToEndId as the /pay answer gave it (the charge's lookup shows none) */
  paidEndToEndId?: unknown;
}

/**
 * Events against resources: the event's `transaction{…}` / `transfer{…}` states attributes of the
 * resource, each equal to what a lookup made after the event shows ({@link shapeEventPayloads}
 * judges them against it): the id (the event reached this resource's own postbackUrl), the amount
 * (a transfer's amount or netAmount; a charge's BR Code amount, or that net of its fees: gross or net
 * is not stated), the status (the lookup's, or a state before it on the documented path: the
 * resource may have moved on; a transfer's `paid` is `completed`), the endToEndId (when both show
 * one; a charge's is the one its /pay answered, which its lookup does not show). A lookup that does not answer 200 is its route's rule's failure; a charge lookup whose BR
 * Code carries no amount (a dynamic code's amount is behind its location) leaves the event's amount
 * compared with the amount created.
 */
export const matchEventsToResources = defineRule({
  name: 'matchEventsToResources',
  requirements: [],
  codes: {},
  uses: [shapeEventPayloads, answerTransferLookup, answerPixChargeLookup],
  relation: GATEWAY_EVENT_RESOURCE,
  judge(o: GatewayEventAndLookup, v) {
    for (const cell of GATEWAY_EVENT_RESOURCE.cells.filter((c) => c.startsWith(`${o.event} · ${o.kind}.`))) v.covers(cell);
    if (!o.lookup.exchange.response) return v.unanswered(o.lookup.exchange);
    if (o.kind === 'transfer') v.apply(answerTransferLookup, { answer: o.lookup });
    else v.apply(answerPixChargeLookup, { answer: o.lookup, id: o.id });
    const data = is2xx(o.lookup.status) ? dataOf(o.lookup.json) : undefined;
    if (!data) return;
    let amounts: number[] | undefined;
    if (o.kind === 'transfer') {
      amounts = [data.amount, data.netAmount].filter((a): a is number => Number.isSafeInteger(a));
    } else {
      const pix = data.pix;
      const gross = brCodeAmountCents(isRecord(pix) ? pix.emv : undefined);
      if (gross !== undefined) amounts = Number.isSafeInteger(data.fees) ? [gross, gross - (data.fees as number)] : [gross];
    }
    const expected: ExpectedEvent = {
      kind: o.kind,
      event: o.event,
      id: o.id,
      amount: o.createdAmount,
      ...(amounts !== undefined && amounts.length > 0 ? { amounts } : {}),
      lookup: { status: data.status, endToEndId: o.kind === 'transfer' ? data.endToEndId : o.paidEndToEndId },
    };
    v.apply(shapeEventPayloads, { delivery: o.delivery, expected });
  },
});
