/**
 * Gateway request enums (harness/rules/statuses.ts `GATEWAY_REQUEST_ENUMS`): every value a request
 * field documents is accepted. "documentType | string | yes | `cpf` or `cnpj`" (PIX IN and card
 * customers), "currency | string | yes | `USD` or `EUR`" (card), "currency | … | only `BRL`"
 * (transfer), "pixKey | … | CPF (digits), CNPJ (digits), e-mail, phone with +55 prefix, or random key
 * (UUID)", "`events` array of event names" (the Events table). A value the text leaves ambiguous (a
 * punctuated CPF or CNPJ key) may be accepted or refused.
 *
 * Each cell is judged by the rule of its route's request table, applied to a valid body carrying the
 * value; this rule says which cells the body tried.
 */
import { defineRule } from '../rule.js';
import { GATEWAY_REQUEST_ENUMS } from '../statuses.js';
import { honourCardRequest, type CardRequestObservation } from './card.js';
import { honourPixChargeRequest, type PixChargeRequestObservation } from './pix-charges.js';
import { honourTransferRequest, type TransferRequestObservation } from './pix-transfers.js';
import { answerWebhookCreation, type WebhookRegistration } from './webhooks.js';

/** A valid request carrying documented enum values (`cells`), as its route's table rule judges it. */
export type RequestEnumObservation = { cells: readonly string[] } & (
  | { route: 'pix-charge'; judged: PixChargeRequestObservation }
  | { route: 'card'; judged: CardRequestObservation }
  | { route: 'transfer'; judged: TransferRequestObservation }
  | { route: 'webhook'; judged: WebhookRegistration }
);

/**
 * Every documented request enum value is accepted: the valid request carrying it is judged by its
 * route's request table (a refusal of a documented value fails there; an ambiguous value is judged
 * as open), and tries its cells.
 */
export const acceptDocumentedRequestEnums = defineRule({
  name: 'acceptDocumentedRequestEnums',
  requirements: [],
  codes: {},
  uses: [honourPixChargeRequest, honourCardRequest, honourTransferRequest, answerWebhookCreation],
  relation: GATEWAY_REQUEST_ENUMS,
  judge(o: RequestEnumObservation, v) {
    for (const cell of o.cells) v.covers(cell);
    if (o.route === 'pix-charge') v.apply(honourPixChargeRequest, o.judged);
    else if (o.route === 'card') v.apply(honourCardRequest, o.judged);
    else if (o.route === 'transfer') v.apply(honourTransferRequest, o.judged);
    else v.apply(answerWebhookCreation, o.judged);
  },
});
