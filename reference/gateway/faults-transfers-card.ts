/**
 * Faults of PIX transfers and card charges added for requirement-level proof (issue 15): each a
 * realistic way an implementation deviates from gateway-api.md, naming the requirement IDs it
 * breaks. Spread into GATEWAY_FAULTS (faults.ts); the code path of each is found by searching its
 * name under reference/gateway/.
 */
import type { FaultSpec } from '../fault-spec.js';
import { gatewayFault as fault } from '../fault-spec.js';


export const TRANSFER_CARD_FAULTS: FaultSpec[] = [
  // PIX transfers: responses
  fault('gw-pixout-status-enum-name', ['GW-PIXOUT-STATUS-ENUM', 'GW-PIXOUT-CREATE-BANKING-PROCESSING'], 'transfer statuses are serialised by their enum constant names: "BANKING_PROCESSING", "COMPLETED"'),
  fault('gw-pixout-fees-numeric-strings', ['GW-PIXOUT-RESP-FIELDS', 'GW-MONEY-CENTS'], 'netAmount and fees come from NUMERIC columns the database driver returns as strings: "1228", not 1228'),
  fault('gw-pixout-post-201', ['GW-PIXOUT-CREATE-200', 'GW-PIXOUT-COMPLETE-200'], 'the transfer POST routes answer the framework default for POST, 201, where the contract says 200'),
  fault('gw-pixout-lookup-unwrapped', ['GW-PIXOUT-GET-200'], 'the transfer lookup returns the entity itself, without the {success, data} envelope'),
  fault('gw-pixout-lookup-no-end-to-end', ['GW-PIXOUT-ENDTOEND-COMPLETED'], 'the endToEndId lives in the settlement record the lookup does not join: a completed transfer is looked up without it'),
  fault('gw-pixout-timestamps-epoch-ms', ['GW-PIXOUT-TIMESTAMPS-ISO'], 'the lookup serialiser writes dates as epoch milliseconds (a JSON serialiser default), not ISO 8601 strings'),
  fault('gw-pixout-complete-not-saved', ['GW-PIXOUT-COMPLETE-COMPLETED'], '/complete answers completed and debits the balance, but the status change is never saved: the transfer stays banking_processing'),
  fault('gw-pixout-complete-unknown-500', ['GW-PIXOUT-COMPLETE-404'], '/complete dereferences the transfer without a not-found guard: an unknown id answers 500'),
  // PIX transfers: requests
  fault('gw-amount-numeric-coerced', ['GW-PIXOUT-AMOUNT-INT', 'GW-CARD-AMOUNT-INT'], 'amounts go through a shared Math.round(Number(x)) helper: "100" and 100.5 are taken as integer cents'),
  fault('gw-pixout-currency-required', ['GW-PIXOUT-CURRENCY-DEFAULT'], 'the transfer schema marks currency required (no default): a transfer without currency is refused'),
  fault('gw-pixout-postback-url-500', ['GW-PIXOUT-POSTBACK-URI'], 'postbackUrl is parsed with new URL() outside the validator: a non-URI string crashes the handler with 500'),

  // Card charges: requests
  fault('gw-card-validates-money-only', [
    'GW-CARD-CUSTOMER-OBJECT', 'GW-CARD-CUSTOMER-REQUIRED', 'GW-CARD-DOCTYPE-ENUM', 'GW-CARD-BILLING-REQUIRED',
    'GW-CARD-TOKEN-REQUIRED', 'GW-CARD-LAST4-REQUIRED', 'GW-CARD-BRAND-REQUIRED', 'GW-CARD-HOLDER-REQUIRED', 'GW-CARD-INSTALLMENTS-MIN',
  ], 'the card handler validates amount and currency only and passes customer and card to the (simulated) acquirer, which approves whatever it gets'),
  fault('gw-card-domestic-validator', ['GW-CARD-DOC-OPTIONAL', 'GW-CARD-PLACEHOLDER-ALLOWED'], 'the BRL card validator is reused for international cards: customer.document must be a valid CPF/CNPJ and card.last4 four digits'),
  fault('gw-card-tracking-unguarded', ['GW-CARD-TRACKING-OPTIONAL'], 'the handler reads trackingParameters.utm_source without a guard: a charge without trackingParameters crashes with 500'),
  fault('gw-card-installments-single-only', ['GW-CARD-INSTALLMENTS-ACCEPTED'], '"always a single payment" is enforced as a rule: installments above 1 are refused'),
  { ...fault('gw-card-token-pattern-from-sample', ['GW-CARD-TOKEN-FORMAT'], 'the token pattern was written from one sample token (ctoken_ and 6 characters): real ctoken_ ids are refused'), strict: '"format ctoken_..." contradicts "any token is approved" and does not give what follows the prefix: refusing some ctoken_ forms is a warning' },
  // Card charges: responses
  fault('gw-card-response-unwrapped', ['GW-CARD-RESP-SHAPE'], 'the card route returns the charge itself, without the {success, data} envelope'),
  fault('gw-card-decline-402', ['GW-CARD-SUCCESS-STATUS', 'GW-CARD-SANDBOX-DECLINE'], 'a declined card answers 402 Payment Required with an error body instead of the refused charge'),
  { ...fault('gw-card-pending-at-creation', ['GW-CARD-SYNC'], 'the acquirer is called after the answer: every card charge is created pending and decided later'), strict: '"Usually synchronous": a pending charge at creation is a warning' },
  fault('gw-txn-lookup-pix-only', ['GW-TXN-LOOKUP-CARD'], 'the generic transaction lookup searches PIX charges only: a card charge id answers 404'),
];
