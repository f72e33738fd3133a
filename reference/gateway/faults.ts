/**
 * The gateway's switchable faults: each one a realistic deviation from gateway-api.md, observable
 * through documented behaviour only, naming the requirement IDs (specs/requirements.yaml)
 * it violates. The code path of each is found by searching its name under reference/gateway/.
 */
import type { FaultSpec } from '../fault-spec.js';
import { gatewayFault as fault } from '../fault-spec.js';
import { PIX_CHARGE_FAULTS } from './faults-pix-charges.js';
import { TRANSFER_CARD_FAULTS } from './faults-transfers-card.js';


export const GATEWAY_FAULTS: FaultSpec[] = [
  // Authentication
  fault('gw-auth-expired-token-accepted', ['GW-AUTH-EXPIRY', 'GW-AUTH-401-INVALID-TOKEN'], 'tokens are accepted after expiresIn has passed', 'timer'),
  fault('gw-auth-garbage-token-accepted', ['GW-AUTH-401-INVALID-TOKEN', 'GW-AUTH-BEARER-EVERY-ROUTE'], 'only the presence of a Bearer token is checked; any string passes'),
  fault('gw-auth-wrong-secret-accepted', ['GW-AUTH-401-INVALID'], 'a known client_id gets a token whatever the secret'),
  fault('gw-auth-body-500', ['GW-AUTH-NO-BODY'], 'a body sent to POST /api/auth crashes the exchange (500)'),
  fault('gw-auth-expires-in-string', ['GW-AUTH-EXPIRES-IN-MS'], 'expiresIn is a JSON string of milliseconds ("60000"), not an integer: every client that fetches a token sees it'),
  { ...fault('gw-auth-expires-in-seconds', ['GW-AUTH-EXPIRES-IN-MS'], 'expiresIn is given in seconds instead of milliseconds'), strict: 'the unit of expiresIn is only read off a number: a value under 1000 reads as seconds, a heuristic' },

  // Limits, at both sides
  fault('gw-pixin-amount-99-accepted', ['GW-PIXIN-AMOUNT-MIN', 'GW-PIXIN-CREATE-400'], 'a PIX charge of 99 cents is created'),
  fault('gw-pixin-amount-100-rejected', ['GW-PIXIN-AMOUNT-MIN', 'GW-PIXIN-CREATE-200'], 'off-by-one: the minimum PIX charge of 100 cents is refused'),
  fault('gw-description-141-accepted', ['GW-PIXIN-DESC-MAX', 'GW-PIXOUT-DESC-MAX'], 'a 141-character description is accepted on charges and transfers'),
  fault('gw-description-140-rejected', ['GW-PIXIN-DESC-MAX', 'GW-PIXOUT-DESC-MAX'], 'off-by-one: a 140-character description is refused'),
  fault('gw-pixin-split-sum-over-100-accepted', ['GW-PIXIN-SPLIT-SUM'], 'split percentages are rounded before summing, so 100.01 % passes'),
  fault('gw-pixout-amount-zero-accepted', ['GW-PIXOUT-AMOUNT-MIN'], 'a PIX transfer of 0 cents is created'),
  fault('gw-card-amount-99-accepted', ['GW-CARD-AMOUNT-MIN'], 'a card charge of 99 cents is processed'),

  // Documents and PIX keys
  fault('gw-pixin-cpf-check-digit-ignored', ['GW-PIXIN-DOC-VALID'], 'a CPF with wrong check digits is accepted on a PIX charge'),
  { ...fault('gw-pixin-alphanumeric-cnpj-rejected', ['GW-PIXIN-DOC-CNPJ-ALNUM'], 'a valid alphanumeric CNPJ is refused (numeric-only validator)'), strict: 'the text says digits only; accepting the alphanumeric CNPJ is expected of a current implementation, refusing it is a warning' },
  fault('gw-pixkey-phone-without-plus55-accepted', ['GW-PIXOUT-KEY-INVALID-REJECTED', 'GW-PIXOUT-KEY-FORMATS'], 'a phone key without the +55 prefix is accepted'),
  fault('gw-pixkey-malformed-email-accepted', ['GW-PIXOUT-KEY-INVALID-REJECTED', 'GW-PIXOUT-KEY-FORMATS'], 'anything containing @ is accepted as an e-mail key'),
  fault('gw-pixin-cnpj-check-digit-ignored', ['GW-PIXIN-DOC-VALID'], 'a numeric CNPJ is checked for its 14 digits only (the CPF validator "extended" by length): wrong check digits pass on a charge'),
  fault('gw-pixin-alphanumeric-cnpj-check-digit-ignored', ['GW-PIXIN-DOC-VALID'], 'the alphanumeric CNPJ was added as a pattern without its check-digit arithmetic: any 12 [0-9A-Z] + 2 digits pass on a charge'),
  fault('gw-document-repeated-digits-accepted', ['GW-PIXIN-DOC-VALID', 'GW-PIXOUT-KEY-INVALID-REJECTED'], 'the validator lacks the blacklist of one-digit documents: 00000000000, 11111111111, 00000000000000 (which pass the check-digit arithmetic) are accepted as a customer document and as a CPF/CNPJ key'),
  fault('gw-pixkey-document-check-digits-ignored', ['GW-PIXOUT-KEY-INVALID-REJECTED', 'GW-PIXOUT-KEY-FORMATS'], 'CPF and CNPJ keys are checked for their shape only: a key of 11 or 14 digits with wrong check digits is sent'),
  fault('gw-pixkey-random-key-loose', ['GW-PIXOUT-KEY-INVALID-REJECTED', 'GW-PIXOUT-KEY-FORMATS'], 'a random key is matched as "32 to 36 hex digits or hyphens", not the UUID layout: a truncated UUID is sent'),
  fault('gw-pixkey-phone-any-length', ['GW-PIXOUT-KEY-INVALID-REJECTED', 'GW-PIXOUT-KEY-FORMATS'], 'a phone key is "+55 and digits": a national number of 8, 9, 12 or 13 digits (no Brazilian phone) is sent'),
  fault('gw-pixkey-email-no-length-cap', ['GW-PIXOUT-KEY-INVALID-REJECTED', 'GW-PIXOUT-KEY-FORMATS'], "e-mail keys are checked for their pattern only: one over the DICT's 77 characters is sent"),

  // BR Code and QR image
  fault('gw-emv-wrong-crc', ['GW-PIXIN-EMV', 'GW-PIXIN-DYNAMIC-QR'], 'the CRC of field 63 is computed without its own "6304" tag'),
  fault('gw-emv-amount-mismatch', ['GW-PIXIN-DYNAMIC-QR', 'GW-PIXIN-EMV'], 'field 54 carries the net amount (after fees), not the charged amount'),
  fault('gw-emv-static-brcode', ['GW-PIXIN-DYNAMIC-QR'], 'a static BR Code (merchant PIX key, point of initiation 11, no payload URL) instead of a dynamic one'),
  fault('gw-qr-image-different-text', ['GW-PIXIN-QRCODE-MATCHES-EMV'], 'the PNG encodes the payload URL, not pix.emv'),
  fault('gw-emv-merchant-name-uncut', ['GW-PIXIN-EMV'], "field 59 carries the company's registered name uncut, over the BR Code table's 25 characters"),
  fault('gw-emv-merchant-city-uncut', ['GW-PIXIN-EMV'], "field 60 carries the company's registered city uncut, over the BR Code table's 15 characters"),
  fault('gw-emv-amount-column-scale', ['GW-PIXIN-EMV'], "field 54 is the amount column's text with 12 decimals (10.000000000000), over the table's 13 characters"),
  fault('gw-emv-txid-charge-id', ['GW-PIXIN-EMV'], "field 62.05 (txid) carries the merchant-prefixed charge id, over the table's 25 characters"),
  fault('gw-emv-fss-in-dynamic', ['GW-PIXIN-EMV'], 'the merchant template carries the PSP\'s ISPB as fss (26.03, a Pix Saque field of the static template) beside the payload location'),

  // State transitions
  fault('gw-pixin-second-pay-succeeds', ['GW-PIXIN-PAY-NOT-PENDING-400'], 'paying an already paid charge answers 200 again'),
  fault('gw-pixout-second-complete-succeeds', ['GW-PIXOUT-COMPLETE-TWICE-400'], 'completing a completed transfer answers 200 again'),
  fault('gw-pixout-complete-without-balance', ['GW-PIXOUT-COMPLETE-BALANCE'], 'a transfer completes although the sandbox balance does not cover it'),
  fault('gw-pixout-balance-check-in-reais', ['GW-PIXOUT-COMPLETE-BALANCE'], 'units mixed up: the balance in cents is compared with the amount in reais, so a transfer just above the balance (up to 100 times it) completes'),
  fault('gw-pixout-complete-no-debit', ['GW-PIXOUT-COMPLETE-BALANCE', 'GW-BAL-FIELDS'], 'a completed transfer is posted to a pending ledger never settled: the available balance never moves'),

  // Races (the lock is skipped; the ledger write yields between check and act)
  fault('gw-pixin-pay-race-double-credit', ['GW-ATOMIC-TRANSITIONS', 'GW-PIXIN-PAID-CREDITS-BALANCE'], 'concurrent /pay calls all succeed and each credits the balance'),
  fault('gw-pixout-complete-race-double-debit', ['GW-ATOMIC-TRANSITIONS', 'GW-PIXOUT-COMPLETE-TWICE-400'], 'concurrent /complete calls all succeed and each debits the balance'),
  fault('gw-idempotency-race-creates-two', ['GW-PIXOUT-IDEM-NO-DUPLICATE'], 'concurrent first uses of one idempotency key create several transfers'),

  // Idempotency
  fault('gw-idempotency-replay-creates-new-transfer', ['GW-PIXOUT-IDEM-REPLAY', 'GW-PIXOUT-IDEM-NO-DUPLICATE'], 'a replay with the same key and body creates a new transfer'),
  fault('gw-idempotency-conflict-returns-200', ['GW-PIXOUT-IDEM-CONFLICT-409'], 'the same key with a different body replays the original 200'),
  fault('gw-idempotency-conflict-returns-400', ['GW-PIXOUT-IDEM-CONFLICT-409', 'GW-ERR-409-MEANING'], 'the same key with a different body answers 400 instead of 409'),
  fault('gw-idempotency-key-optional', ['GW-PIXOUT-IDEM-REQUIRED'], 'a transfer without x-idempotency-key is created'),
  fault('gw-idempotency-fingerprint-ignores-description', ['GW-PIXOUT-IDEM-CONFLICT-409'], 'the body fingerprint leaves out description: the same key with only another description replays the first transfer instead of 409'),
  fault('gw-idempotency-fingerprint-amount-only', ['GW-PIXOUT-IDEM-CONFLICT-409'], 'the body fingerprint covers the amount alone: the same key with the same amount and another pixKey replays the first transfer instead of 409'),
  fault('gw-idempotency-cache-ignores-account', ['GW-ERR-404-OTHER-ACCOUNT'], "the idempotency cache is keyed by the key alone: another account reusing a key with the same body gets the first account's transfer (and none of its own)"),

  // Balance arithmetic and rendering
  fault('gw-balance-credit-fees-twice', ['GW-PIXIN-PAID-CREDITS-BALANCE'], 'a paid charge credits amount minus twice the fees'),
  fault('gw-balance-as-number', ['GW-BAL-STRINGS-2DP', 'GW-BAL-200-SHAPE'], 'balances are JSON numbers, not strings'),
  fault('gw-balance-one-decimal', ['GW-BAL-STRINGS-2DP'], 'balances are strings with one decimal ("10.5")'),
  fault('gw-card-status-approved', ['GW-CARD-STATES', 'GW-CARD-SANDBOX-APPROVE', 'GW-CARD-RESP-STATUS-ENUM'], 'an approved card sale reports status "approved", not "paid"'),
  fault('gw-card-sale-credits-pix-balance', ['GW-CARD-NO-PIX-BALANCE'], 'an approved card sale is credited to the PIX balance at once'),

  // Card rules
  fault('gw-pixout-currency-ignored', ['GW-PIXOUT-CURRENCY-BRL'], 'the transfer currency is checked as a 3-letter code only (copied from the card route): USD is accepted and the transfer goes out in BRL'),
  fault('gw-card-brl-accepted', ['GW-CARD-CURRENCY-BRL-400', 'GW-CARD-CURRENCY'], 'a card charge in BRL is processed'),
  fault('gw-card-raw-number-accepted', ['GW-CARD-RAW-DATA-REJECTED'], 'raw card number / CVV / expiry fields are ignored and the charge is approved'),
  fault('gw-card-decline-token-paid', ['GW-CARD-SANDBOX-DECLINE'], 'a sandbox token containing "decline" is approved'),
  fault('gw-card-brand-last4-normalised', ['GW-CARD-ECHO-BRAND-LAST4'], 'card.brand is lower-cased and card.last4 reduced to digits'),

  // Webhook deliveries
  fault('gw-webhook-signature-wrong-key', ['GW-WH-SIGNATURE-HMAC', 'GW-AUTH-CALLBACKS-SIGNED'], 'callbacks are signed with a platform-wide key, not the signatureSecret'),
  fault('gw-webhook-signature-over-pretty-json', ['GW-WH-SIGNATURE-HMAC'], 'the HMAC covers indented JSON while the body sent is compact'),
  fault('gw-webhook-signature-uppercase-hex', ['GW-WH-SIGNATURE-LOWER-HEX'], 'v1 is upper-case hex'),
  fault('gw-webhook-signed-timestamp-differs', ['GW-WH-SIGNATURE-HEADER', 'GW-WH-SIGNATURE-HMAC'], 't is in seconds but the signed text used milliseconds'),
  fault('gw-webhook-unsubscribed-receives', ['GW-EVT-ONLY-SUBSCRIBED'], 'every active webhook of the account receives every event'),
  fault('gw-webhook-deleted-still-receives', ['GW-WH-DELETE'], 'a deleted webhook keeps receiving events'),
  fault('gw-webhook-postback-ignored', ['GW-EVT-POSTBACK'], 'postbackUrl is stored but never called'),
  fault('gw-webhook-transfer-status-completed', ['GW-EVT-TRANSFER-COMPLETED-PAID', 'GW-EVT-TRANSFER-PAYLOAD'], 'transfer_completed carries status "completed" instead of "paid"'),
  fault('gw-webhook-amount-in-reais', ['GW-EVT-TXN-PAYLOAD', 'GW-EVT-TRANSFER-PAYLOAD', 'GW-MONEY-CENTS'], 'event amounts are reais (10.5) instead of integer cents'),
  fault('gw-webhook-missing-user-agent', ['GW-WH-USER-AGENT'], 'callbacks carry no User-Agent header'),
  fault('gw-webhook-dispatch-ignores-environment', ['GW-ENV-WEBHOOKS-SEPARATE', 'GW-ENV-ISOLATION'], "webhooks are selected by account and event without the environment: a webhook registered with the production token receives the account's sandbox events"),
  fault('gw-webhook-dispatch-by-event-only', ['GW-EVT-ONLY-SUBSCRIBED', 'GW-ERR-404-OTHER-ACCOUNT'], "webhooks are selected by event name only: another account's webhook receives this account's events"),
  fault('gw-pixin-confirms-itself', ['GW-SANDBOX-NO-AUTO-CONFIRM'], 'a sandbox auto-payer confirms a pending charge when it is looked up a second time'),

  // Isolation between environments and accounts
  fault('gw-production-validation-422', ['GW-ENV-IDENTICAL-BEHAVIOUR'], 'production answers 422 where the sandbox answers 400 for the same invalid PIX charge'),
  fault('gw-isolation-production-sees-sandbox', ['GW-ENV-ISOLATION'], 'a production token reads and lists sandbox resources of the same account'),
  fault('gw-isolation-other-account-sees-resource', ['GW-ERR-404-OTHER-ACCOUNT', 'GW-ENV-ISOLATION'], "another account's token reads its resources"),
  fault('gw-sandbox-simulation-in-production-allowed', ['GW-PIXIN-PAY-PROD-403', 'GW-PIXOUT-COMPLETE-PROD-403', 'GW-AUTH-SIM-SANDBOX-ONLY', 'GW-ERR-403-MEANING'], '/pay and /complete skip the sandbox-credentials check'),
  fault('gw-sandbox-simulates-production-resource', ['GW-ERR-403-MEANING'], "/pay looks the charge up by account only: sandbox credentials confirm the account's production charge instead of 403 (resource not owned by a sandbox key)"),
  fault('gw-simulation-checks-ownership-only', ['GW-PIXIN-PAY-PROD-403', 'GW-AUTH-SIM-SANDBOX-ONLY'], "/pay and /complete check that the resource belongs to the caller's environment (403 for a sandbox resource), not that the caller is a sandbox one: production credentials confirm a production charge"),
  fault('gw-balance-shared-across-environments', ['GW-ENV-BALANCE-SEPARATE', 'GW-ENV-ISOLATION'], 'the balance query filters by account only: the production balance also sums the sandbox postings'),

  // Error shapes and status codes
  fault('gw-error-not-found-without-code', ['GW-PIXIN-GET-404-SHAPE', 'GW-PIXOUT-GET-404-SHAPE', 'GW-ERR-CODES'], '404 answers {success:false,message} without error: NOT_FOUND'),
  fault('gw-error-conflict-without-code', ['GW-PIXOUT-IDEM-CONFLICT-409', 'GW-ERR-CODES'], '409 answers {success:false,message} without error: IDEMPOTENCY_CONFLICT'),
  fault('gw-error-malformed-json-500', ['GW-PIXIN-CREATE-400', 'GW-PIXOUT-CREATE-400', 'GW-ERR-400-MEANING'], 'a malformed JSON body crashes the handler with 500'),

  // PIX charges: response fields, lookups, simulation events, optional and nested request parts (faults-pix-charges.ts)
  ...PIX_CHARGE_FAULTS,
  // PIX transfers and card charges (issue 15 proof): faults-transfers-card.ts
  ...TRANSFER_CARD_FAULTS,
  // Issue 15 (proof): authentication, webhooks, events, errors, general
  fault('gw-auth-opaque-session-token', ['GW-AUTH-200-SHAPE', 'GW-AUTH-TOKEN-JWT', 'GW-AUTH-TOKEN-TYPE-BEARER'], "POST /api/auth is a session service: an opaque hex session id as token, tokenType \"Session\", and no success flag (the {success} wrapper is mounted on /api/v1 only)"),
  fault('gw-auth-scheme-ignored', ['GW-AUTH-BASIC'], 'the exchange splits Authorization on the space and base64-decodes the second part whatever the scheme: "Bearer <base64(id:secret)>" gets a token'),
  fault('gw-auth-missing-token-403', ['GW-AUTH-401-MISSING', 'GW-ANY-401-429'], "a request without a Bearer token is refused with 403 (the security framework's default entry point for anonymous callers), not 401"),
  fault('gw-auth-cached-token-reissued', ['GW-AUTH-REAUTH'], "POST /api/auth hands back the client's cached token without checking that it has expired: after expiry a new exchange gives a token that is already refused", 'timer'),
  fault('gw-webhook-entity-serializer', ['GW-WH-ID-INTEGER', 'GW-WH-RESOURCE-FIELDS', 'GW-WH-CREATED-AT-ISO', 'GW-WH-SECRET-ON-CREATE', 'GW-WH-CREATE-200'], "the Webhook entity goes through a generic serializer: the bigint id as a string, the events column as its stored comma-joined text, createdAt as epoch milliseconds, and the secret column ignored on every answer, creation included"),
  fault('gw-webhook-list-not-json', ['GW-WH-LIST', 'GW-JSON-BODIES'], 'the list handler sends String(rows): 200 text/html "[object Object],…"'),
  fault('gw-webhook-events-default-all', ['GW-WH-CREATE-REQUIRED'], 'a webhook created without events is subscribed to every event instead of refused'),
  fault('gw-webhook-form-encoded', ['GW-WH-CONTENT-TYPE', 'GW-EVT-HTTP-POST-JSON'], "callbacks are posted by an HTTP client's form helper: application/x-www-form-urlencoded, body payload=<url-encoded JSON>"),
  fault('gw-events-creation-not-emitted', ['GW-EVT-TRANSACTION-CREATED', 'GW-EVT-TRANSFER-CREATED'], 'events are published from the status-change hook: a creation (an insert, no status change) emits nothing'),
  fault('gw-events-settled-as-updated', ['GW-EVT-TRANSACTION-PAID', 'GW-EVT-TRANSFER-COMPLETED'], 'one generic "status changed" event type: payment and completion are announced as transaction_updated/transfer_updated only'),
  fault('gw-webhook-dispatch-first-match', ['GW-EVT-DELIVERY-SUBSCRIBED'], 'the dispatcher looks up the subscribed webhook with find() instead of filter(): only the oldest matching webhook receives the event'),
  fault('gw-webhook-envelope-outbox-row', ['GW-EVT-ID-UUID', 'GW-EVT-SCOPE-USER'], "the event envelope is filled from the outbox row: id its auto-increment integer, scope the enum constant's name \"USER\""),
  { ...fault('gw-webhook-event-name-enum-constant', ['GW-EVT-EVENT-NAME'], 'the event field carries the enum constant name (TRANSACTION_PAID) instead of the event name'), strict: 'the value of `event` is not spelled out: a value other than the event name is a warning' },
  fault('gw-production-pair-refused', ['GW-ENV-SAME-HOST', 'GW-ENV-BY-CREDENTIALS'], 'this host knows the sandbox pairs only: the production pair is refused with 401 (production deployed on another host)'),
  fault('gw-validation-errors-array', ['GW-ERR-SHAPES', 'GW-ERR-422-FIELD'], "field validation failures answer the validator library's default: 422 {errors: [{type, msg: \"Invalid value\", path, location}]}, no message"),
  fault('gw-balance-route-unversioned', ['GW-VER-PREFIX'], 'the balance router is mounted at /api/balance, without the /api/v1 prefix'),
  // rel-bc: echo and events against resources (relations b and c)
  fault('gw-pixout-lookup-pixkey-masked', ['GW-PIXOUT-RESP-PIXKEY'], 'the transfer lookup masks the destination key the way statements mask documents (529******25): the creation answer shows it whole'),
  fault('gw-paid-event-own-end-to-end-id', ['GW-EVT-TXN-PAYLOAD'], "the transaction event builder stamps an end-to-end id of its own instead of the payment's: transaction_paid carries another endToEndId than /pay answered"),
  fault('gw-transfer-event-amount-whole-reais', ['GW-EVT-TRANSFER-PAYLOAD'], "transfer events fill their amount from the ledger's reais column, rounded to an integer (R$ 10.05 is sent as 10): an integer, but none of the transfer's amounts in cents"),
  fault('gw-timestamps-utc-labelled-brasilia', ['GW-PIXOUT-TIMESTAMPS-ISO'], 'timestamps take the UTC wall clock and append the Brasília offset: 12:00 UTC is written 12:00-03:00, an instant three hours ahead (valid ISO 8601, every path agreeing)'),
];
