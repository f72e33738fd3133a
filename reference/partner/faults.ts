/**
 * Switchable deviations of the partner reference from partner-cashin-api.md. Each one is
 * observable through documented behaviour only and names the requirement IDs it violates
 * (specs/requirements.yaml). The code checks `faults.has('pt-…')` exactly where the
 * deviation happens, so the correct path stays readable next to it.
 */
import type { FaultSpec } from '../fault-spec.js';
import { partnerFault } from '../fault-spec.js';
import { PROOF_FAULTS } from './faults-proof.js';

/** Keeps each fault's name as a literal type so a misspelt `faults.has(...)` fails to compile. */

const DEFINED_FAULTS = [
  // ── authentication and isolation ──────────────────────────────────────────────────────────
  partnerFault({ name: 'pt-auth-missing-key-accepted', tier: 'quick', requirements: ['PT-AUTH-401', 'PT-AUTH-ROUTES'],
    intent: 'a request without Authorization is served as the sandbox account instead of 401' }),
  partnerFault({ name: 'pt-auth-unknown-key-accepted', tier: 'quick', requirements: ['PT-AUTH-401'],
    intent: 'any unknown key with the ak_test_ prefix is served as the sandbox account instead of 401' }),
  partnerFault({ name: 'pt-live-pay-allowed', tier: 'quick', requirements: ['PT-CHARGE-PAY-PROD-403', 'PT-ERR-403-ENV'],
    intent: 'the sandbox pay route confirms a production charge (200) instead of 403' }),
  partnerFault({ name: 'pt-sandbox-pays-live-charge', tier: 'quick', requirements: ['PT-ENV-ISOLATION'],
    intent: 'the pay simulation looks the charge up by account only: the sandbox key pays the account\'s production charge' }),
  partnerFault({ name: 'pt-test-live-data-shared', tier: 'quick', requirements: ['PT-ENV-ISOLATION'],
    intent: 'sandbox and production keys of one account see each other\'s charges and ledger' }),
  partnerFault({ name: 'pt-list-other-account', tier: 'quick', requirements: ['PT-LIST-ACCOUNT-SCOPE'],
    intent: 'the list includes the sandbox charges of every account' }),
  partnerFault({ name: 'pt-cross-account-lookup', tier: 'quick', requirements: ['PT-ERR-404-OTHER-ACCOUNT'],
    intent: 'a charge of another account is found by id (200) instead of 404' }),

  // ── creation limits ────────────────────────────────────────────────────────────────────────
  partnerFault({ name: 'pt-amount-zero-accepted', tier: 'quick', requirements: ['PT-CHARGE-AMOUNT-POSITIVE'],
    intent: 'amount_cents 0 creates a charge instead of 422' }),
  partnerFault({ name: 'pt-description-301-accepted', tier: 'quick', requirements: ['PT-CHARGE-DESC-MAX'],
    intent: 'off by one: a 301-character description is accepted' }),
  partnerFault({ name: 'pt-description-300-rejected', tier: 'quick', requirements: ['PT-CHARGE-DESC-MAX'],
    intent: 'off by one: a 300-character description is rejected with 422' }),
  partnerFault({ name: 'pt-external-ref-121-accepted', tier: 'quick', requirements: ['PT-CHARGE-EXTREF-MAX'],
    intent: 'off by one: a 121-character external_ref is accepted' }),
  partnerFault({ name: 'pt-expires-59-accepted', tier: 'quick', requirements: ['PT-CHARGE-EXPIRES-RANGE'],
    intent: 'expires_in_seconds below 60 (down to 1) is accepted' }),
  partnerFault({ name: 'pt-expires-86401-accepted', tier: 'quick', requirements: ['PT-CHARGE-EXPIRES-RANGE'],
    intent: 'expires_in_seconds has no upper bound' }),
  partnerFault({ name: 'pt-default-expiry-wrong', tier: 'quick', requirements: ['PT-CHARGE-EXPIRES-DEFAULT'],
    intent: 'without expires_in_seconds the charge expires after 1800 s instead of 3600 s' }),

  // ── error answers ──────────────────────────────────────────────────────────────────────────
  partnerFault({ name: 'pt-validation-status-400', tier: 'quick', requirements: ['PT-ERR-422-INVALID-BODY'],
    intent: 'an invalid body answers 400 instead of 422' }),
  partnerFault({ name: 'pt-error-detail-missing', tier: 'quick', requirements: ['PT-ERR-DETAIL-SHAPE'],
    intent: 'a 422 body is {"error": ...} without the detail field' }),
  partnerFault({ name: 'pt-malformed-json-500', tier: 'quick', requirements: ['PT-ERR-422-MALFORMED-JSON'],
    intent: 'a body that is not JSON crashes the handler (500)' }),

  // ── charge content ─────────────────────────────────────────────────────────────────────────
  partnerFault({ name: 'pt-external-ref-trimmed', tier: 'quick', requirements: ['PT-CHARGE-EXTREF-UNCHANGED'],
    intent: 'external_ref is stored trimmed of surrounding whitespace' }),
  partnerFault({ name: 'pt-qr-code-bad-crc', tier: 'quick', requirements: ['PT-CHARGE-QR-EMV', 'PT-CHARGE-FIELD-QR'],
    intent: 'the qr_code CRC16 (field 63) does not match the payload' }),
  partnerFault({ name: 'pt-qr-code-amount-in-reais', tier: 'quick', requirements: ['PT-CHARGE-QR-EMV'],
    intent: 'the qr_code amount (field 54) reads amount_cents as reais, 100 times too much' }),

  partnerFault({ name: 'pt-timestamps-local-offset', tier: 'quick', requirements: ['PT-CHARGE-TIMESTAMPS-UTC'],
    intent: 'created_at and expires_at are Brasília local time with a -03:00 offset instead of UTC' }),

  // ── state machine ──────────────────────────────────────────────────────────────────────────
  partnerFault({ name: 'pt-cancel-paid-succeeds', tier: 'quick', requirements: ['PT-CHARGE-CANCEL-409', 'PT-STATE-PAID-TERMINAL'],
    intent: 'canceling a paid charge answers 200 and marks it canceled' }),
  partnerFault({ name: 'pt-pay-canceled-succeeds', tier: 'quick', requirements: ['PT-STATE-ONE-TRANSITION'],
    intent: 'paying a canceled charge answers 200, marks it paid and captures' }),
  partnerFault({ name: 'pt-pay-after-expiry', tier: 'timer', requirements: ['PT-CHARGE-PAY-AFTER-EXPIRY', 'PT-CHARGE-EXPIRY-LAZY'],
    intent: 'a pending charge past expires_at can still be paid' }),
  partnerFault({ name: 'pt-cancel-after-expiry', tier: 'timer', requirements: ['PT-CHARGE-CANCEL-EXPIRED-409'],
    intent: 'a pending charge past expires_at can still be canceled (200) instead of expiring with 409' }),
  partnerFault({ name: 'pt-lookup-never-expires', tier: 'timer', requirements: ['PT-CHARGE-EXPIRY-LAZY'],
    intent: 'lookups and lists keep showing pending after expires_at' }),

  // ── atomicity ──────────────────────────────────────────────────────────────────────────────
  partnerFault({ name: 'pt-pay-not-atomic', tier: 'quick', requirements: ['PT-ATOMIC-CAPTURE'],
    intent: 'concurrent pays of one charge all succeed and capture the value more than once' }),
  partnerFault({ name: 'pt-pay-cancel-not-atomic', tier: 'quick', requirements: ['PT-STATE-ONE-TRANSITION', 'PT-ATOMIC-CAPTURE'],
    intent: 'pay and cancel lock separately, so concurrent pay and cancel both answer 200' }),
  partnerFault({ name: 'pt-idempotency-race', tier: 'quick', requirements: ['PT-IDEM-NO-REPEAT'],
    intent: 'concurrent creations with one Idempotency-Key create several charges' }),

  // ── idempotency ────────────────────────────────────────────────────────────────────────────
  partnerFault({ name: 'pt-idempotency-ignored', tier: 'quick', requirements: ['PT-IDEM-REPLAY', 'PT-IDEM-NO-REPEAT'],
    intent: 'a replay with the same Idempotency-Key and body creates a new charge' }),
  partnerFault({ name: 'pt-idempotency-conflict-accepted', tier: 'quick', requirements: ['PT-IDEM-CONFLICT-409'],
    intent: 'the same Idempotency-Key with a different body replays the original (200) instead of 409' }),
  partnerFault({ name: 'pt-dedupe-by-external-ref', tier: 'quick', requirements: ['PT-IDEM-ABSENT-NEW', 'PT-CHARGE-EXTREF-LABEL'],
    intent: 'without Idempotency-Key a repeated external_ref returns the earlier charge' }),

  // ── list ───────────────────────────────────────────────────────────────────────────────────
  partnerFault({ name: 'pt-list-oldest-first', tier: 'quick', requirements: ['PT-LIST-ORDER'],
    intent: 'the list is ordered oldest first' }),
  partnerFault({ name: 'pt-list-unbounded', tier: 'quick', requirements: ['PT-LIST-MAX-200'],
    intent: 'the list returns every charge, more than 200' }),
  partnerFault({ name: 'pt-list-status-filter-ignored', tier: 'quick', requirements: ['PT-LIST-STATUS-FILTER'],
    intent: 'the status query is ignored' }),

  // ── finance ────────────────────────────────────────────────────────────────────────────────
  partnerFault({ name: 'pt-capture-not-posted', tier: 'quick', requirements: ['PT-CHARGE-PAY-CAPTURE', 'PT-FIN-AVAILABLE-RELIABLE'],
    intent: 'a payment posts nothing to the ledger and leaves available_cents unchanged',
    strict: 'what a capture looks like in the statement, and when captured money becomes available, are not defined' }),
  partnerFault({ name: 'pt-ledger-unbalanced', tier: 'quick', requirements: ['PT-FIN-BALANCED'],
    intent: 'the capture posting omits the fee entry, so debits exceed credits' }),
  partnerFault({ name: 'pt-available-balance-stale', tier: 'quick', requirements: ['PT-FIN-AVAILABLE-RELIABLE'],
    intent: 'a capture is posted but available_cents does not move',
    strict: 'what a capture looks like in the statement, and when captured money becomes available, are not defined' }),
  partnerFault({ name: 'pt-capture-debits-available', tier: 'quick', requirements: ['PT-FIN-CAPTURE-NO-LOSS'],
    intent: 'a sign error: the capture posting is right, but available_cents falls by the credited net amount' }),
  partnerFault({ name: 'pt-available-balance-doubled', tier: 'quick', requirements: ['PT-FIN-AVAILABLE-RELIABLE'],
    intent: 'available_cents rises by twice the credited net amount',
    strict: 'what a capture looks like in the statement, and when captured money becomes available, are not defined' }),
  partnerFault({ name: 'pt-finance-over-50', tier: 'quick', requirements: ['PT-FIN-LAST-50'],
    intent: 'the statement lists up to 100 transactions' }),
  partnerFault({ name: 'pt-finance-amounts-as-strings', tier: 'quick', requirements: ['PT-FIN-AVAILABLE', 'PT-FIN-ENTRY-SHAPE', 'PT-MONEY-INTEGER-CENTS'],
    intent: 'available_cents and entry amounts are strings such as "1234"' }),
  partnerFault({ name: 'pt-finance-currency-missing', tier: 'quick', requirements: ['PT-FIN-CURRENCY-BRL', 'PT-MONEY-BRL'],
    intent: 'the statement has no currency field' }),

  // ── webhooks ───────────────────────────────────────────────────────────────────────────────
  partnerFault({ name: 'pt-webhook-signature-reserialised', tier: 'quick', requirements: ['PT-WH-RAW-BODY', 'PT-WH-SIGNATURE'],
    intent: 'v1 is computed over pretty-printed JSON while compact bytes are sent' }),
  partnerFault({ name: 'pt-webhook-wrong-secret', tier: 'quick', requirements: ['PT-WH-SIGNATURE'],
    intent: 'v1 is keyed with a secret other than the endpoint secret' }),
  partnerFault({ name: 'pt-webhook-timestamp-ms', tier: 'quick', requirements: ['PT-WH-TIMESTAMP-EPOCH', 'PT-WH-TOLERANCE'],
    intent: 't= is epoch milliseconds instead of seconds',
    strict: 'the text says t=<epoch> without a unit; milliseconds are a plausible reading, reported as a warning' }),
  partnerFault({ name: 'pt-webhook-created-event-missing', tier: 'quick', requirements: ['PT-EVT-CREATED'],
    intent: 'no business.pix.created event is sent' }),
  partnerFault({ name: 'pt-webhook-paid-event-missing', tier: 'quick', requirements: ['PT-EVT-PAID', 'PT-CHARGE-PAY-WEBHOOK'],
    intent: 'no business.pix.paid event is sent' }),
  partnerFault({ name: 'pt-webhook-canceled-event-missing', tier: 'quick', requirements: ['PT-EVT-CANCELED', 'PT-WH-STATE-CHANGE'],
    intent: 'no business.pix.canceled event is sent' }),
  partnerFault({ name: 'pt-webhook-external-ref-missing', tier: 'quick', requirements: ['PT-CHARGE-EXTREF-UNCHANGED', 'PT-WH-DATA-FIELDS'],
    intent: 'the event data has no external_ref' }),
  partnerFault({ name: 'pt-webhook-no-redelivery', tier: 'timer', requirements: ['PT-WH-REDELIVERY-RETRIES'],
    intent: 'a failed delivery is never retried' }),
  partnerFault({ name: 'pt-webhook-redelivery-new-id', tier: 'timer', requirements: ['PT-WH-EVENT-ID-STABLE'],
    intent: 'each redelivery carries a new event id' }),
  partnerFault({ name: 'pt-webhook-backoff-constant', tier: 'timer', requirements: ['PT-WH-BACKOFF'],
    intent: 'redeliveries are spaced by a constant gap instead of doubling' }),
  partnerFault({ name: 'pt-webhook-backoff-uncapped', tier: 'timer', requirements: ['PT-WH-BACKOFF-CAP'],
    intent: 'the redelivery gap keeps doubling past the cap' }),
  partnerFault({ name: 'pt-webhook-too-many-attempts', tier: 'timer', requirements: ['PT-WH-REDELIVERY-ATTEMPTS'],
    intent: 'a failing event is attempted 12 times instead of at most 8' }),

  // ── issue 15: the ways independent implementations slipped past the quick profile ─────────────
  partnerFault({ name: 'pt-qr-merchant-fields-off-by-one', tier: 'quick', requirements: ['PT-CHARGE-QR-EMV'],
    intent: 'the registered merchant name and city are cut at 26 and 16 characters (off by one): fields 59/60 exceed the BR Code table\'s 25/15' }),
  partnerFault({ name: 'pt-qr-amount-over-13', tier: 'quick', requirements: ['PT-CHARGE-QR-EMV'],
    intent: 'no cap at R$ 9,999,999,999.99: a larger amount is accepted and written whole into field 54 (over its 13 characters)' }),
  partnerFault({ name: 'pt-qr-code-crc-unformatted', tier: 'quick', requirements: ['PT-CHARGE-QR-EMV'],
    intent: 'field 63 is printed with crc.toString(16): lowercase hex, leading zeros dropped',
    strict: 'no official source states the case of the CRC\'s hex digits (PT-CHARGE-QR-EMV\'s ambiguity): a lower-case CRC is a warning; only a CRC below 0x1000, one code in 16, also loses a digit, which fails' }),
  partnerFault({ name: 'pt-qr-txid-hyphenated', tier: 'quick', requirements: ['PT-CHARGE-QR-EMV'],
    intent: 'field 62.05 carries the charge reference PT-<28 hex> (31 characters with a hyphen): over the 25 of EMV\'s field 05 and no txid (letters and digits)' }),
  partnerFault({ name: 'pt-qr-key-and-location', tier: 'quick', requirements: ['PT-CHARGE-QR-EMV'],
    intent: 'the merchant template carries the merchant\'s phone key (01) beside the payload location (25): a dynamic template holds 00 and 25 only' }),
  partnerFault({ name: 'pt-qr-code-static', tier: 'quick', requirements: ['PT-CHARGE-QR-DYNAMIC'],
    intent: 'qr_code is a static BR Code (the merchant key in 26.01, point of initiation 11) instead of a dynamic one (payload URL in 26.25)' }),
  partnerFault({ name: 'pt-ledger-fee-rounding', tier: 'quick', requirements: ['PT-FIN-BALANCED'],
    intent: 'the fee line is rounded up while the merchant net is computed from the fee rounded down: postings are off by a cent' }),
  partnerFault({ name: 'pt-available-credited-gross', tier: 'quick', requirements: ['PT-FIN-AVAILABLE-RELIABLE'],
    intent: 'the posting credits the merchant the net (fee split off) but available_cents rises by the gross amount',
    strict: '"reliable" is not defined and no fee is shown (PT-FIN-AVAILABLE-RELIABLE carries latitude: warning); the balance contradicting its own posting is reported as a warning' }),
  partnerFault({ name: 'pt-pay-race-double-effects', tier: 'quick', requirements: ['PT-ATOMIC-CAPTURE'],
    intent: 'concurrent pays are not serialised; the ledger deduplicates the posting by charge id, but each pay raises available_cents and sends its own business.pix.paid (new event id and e2e_id)' }),
  partnerFault({ name: 'pt-idempotency-key-global', tier: 'quick', requirements: ['PT-ERR-404-OTHER-ACCOUNT', 'PT-ENV-ISOLATION'],
    intent: 'Idempotency-Key records are cached by key alone: another account (or the production key) reusing a key gets the first account\'s charge' }),
  partnerFault({ name: 'pt-idempotency-fingerprint-amount-only', tier: 'quick', requirements: ['PT-IDEM-CONFLICT-409'],
    intent: 'the Idempotency-Key fingerprint covers amount_cents only: same key, same amount, another description replays instead of 409' }),
  partnerFault({ name: 'pt-idempotency-fingerprint-ignores-customer', tier: 'quick', requirements: ['PT-IDEM-CONFLICT-409'],
    intent: 'the Idempotency-Key fingerprint leaves out customer_email: same key, another customer_email only, replays instead of 409' }),
  partnerFault({ name: 'pt-paid-e2e-missing', tier: 'quick', requirements: ['PT-CHARGE-E2E-WHEN-PAID'],
    intent: 'the e2e_id of a payment goes into the paid event but is never stored on the charge: a paid charge shows no e2e_id' }),
  partnerFault({ name: 'pt-webhook-timestamp-local-time', tier: 'quick', requirements: ['PT-WH-TOLERANCE', 'PT-WH-SIGNATURE'],
    intent: 'the signature t is Brasília wall-clock time read as UTC: three hours behind the service\'s own created_at' }),
  partnerFault({ name: 'pt-webhook-dispatch-all-accounts', tier: 'quick', requirements: ['PT-ERR-404-OTHER-ACCOUNT', 'PT-ENV-ISOLATION'],
    intent: 'events are dispatched by event name to the registered URL whatever the charge\'s account or environment' }),
  partnerFault({ name: 'pt-ledger-keyed-by-account', tier: 'quick', requirements: ['PT-ENV-ISOLATION'],
    intent: 'the ledger is keyed by account only: sandbox captures show in the production statement and balance' }),
  partnerFault({ name: 'pt-ledger-keyed-by-environment', tier: 'quick', requirements: ['PT-ERR-404-OTHER-ACCOUNT'],
    intent: 'the ledger is keyed by environment only: one account\'s captures show in another account\'s statement and balance' }),
  partnerFault({ name: 'pt-list-ordered-by-id', tier: 'quick', requirements: ['PT-LIST-ORDER'],
    intent: 'the list is sorted by id descending (random ids), not by creation' }),
  partnerFault({ name: 'pt-list-oldest-200', tier: 'quick', requirements: ['PT-LIST-MAX-200'],
    intent: 'the list keeps the first 200 charges ever created (cut before sorting newest first), not the 200 newest' }),
  partnerFault({ name: 'pt-list-limit-uncapped', tier: 'quick', requirements: ['PT-LIST-MAX-200'],
    intent: 'an undocumented ?limit= query is honoured beyond 200' }),
  partnerFault({ name: 'pt-finance-first-50', tier: 'quick', requirements: ['PT-FIN-LAST-50'],
    intent: 'the statement shows the first 50 postings of the ledger instead of the last 50' }),
  // ── issue 15 (second half): the charge resource, its creation body and its transitions ────────
  partnerFault({ name: 'pt-charge-entity-serialized', tier: 'quick', requirements: ['PT-CHARGE-FIELD-ID', 'PT-CHARGE-FIELD-STATUS', 'PT-CHARGE-FIELD-AMOUNT', 'PT-CHARGE-CREATE-PENDING'],
    intent: 'the persistence entity is serialised instead of the contract DTO: id is the auto-increment key (a JSON number), status the enum constant\'s name ("PENDING"), amount_cents the entity\'s amount in reais (12.34)' }),
  partnerFault({ name: 'pt-charge-optional-as-bean', tier: 'quick', requirements: ['PT-CHARGE-FIELD-DESC', 'PT-CHARGE-FIELD-EXTREF', 'PT-CHARGE-FIELD-EMAIL', 'PT-CHARGE-FIELD-E2E', 'PT-CHARGE-FIELD-PROVIDER'],
    intent: 'Optional<String> fields (description, external_ref, customer_email, e2e_id, provider) are serialised as beans without the Jdk8 module: {"present":true,"empty":false} instead of the string' }),
  partnerFault({ name: 'pt-create-answers-201', tier: 'quick', requirements: ['PT-CHARGE-CREATE-200'],
    intent: 'charge creation answers the framework\'s default for POST, 201 Created, where the contract states "200: PIX charge."' }),
  partnerFault({ name: 'pt-amount-nan-accepted', tier: 'quick', requirements: ['PT-CHARGE-AMOUNT-REQUIRED', 'PT-CHARGE-AMOUNT-INTEGER'],
    intent: 'amount_cents is read with Number() and refused only when `amount <= 0`: a missing amount (NaN) creates a charge with amount null, "100" and 10.5 are accepted' }),
  partnerFault({ name: 'pt-customer-email-required', tier: 'quick', requirements: ['PT-CHARGE-EMAIL-OPTIONAL'],
    intent: 'customer_email is a NOT NULL column and the request model requires it: a body without it answers 422' }),
  partnerFault({ name: 'pt-text-columns-utf8mb3', tier: 'quick', requirements: ['PT-CHARGE-DESC-MULTIBYTE', 'PT-CHARGE-EXTREF-MULTIBYTE'],
    intent: 'description and external_ref are stored in 3-byte UTF-8 columns: a character outside the BMP (an emoji) fails the INSERT and answers 500' }),
  partnerFault({ name: 'pt-lookup-stale-cache', tier: 'quick', requirements: ['PT-CHARGE-GET-CURRENT'],
    intent: 'GET by id is served from a cache filled at creation and never invalidated: a paid or canceled charge still looks up as pending' }),
  partnerFault({ name: 'pt-transition-not-persisted', tier: 'quick', requirements: ['PT-CHARGE-CANCEL-PENDING', 'PT-CHARGE-PAY-CONFIRMS'],
    intent: 'cancel and pay change a copy of the charge that is never saved: both answer 200 and send their event (pay also captures), the charge stays pending' }),
  partnerFault({ name: 'pt-charge-qr-image', tier: 'quick', requirements: ['PT-CHARGE-NO-IMAGE'],
    intent: 'the processor\'s QR image is passed through: the charge carries qr_code_base64, a base64 PNG',
    strict: 'no field is named for an image; an image-like value is reported as a warning (PT-CHARGE-NO-IMAGE carries latitude: warning)' }),
  partnerFault({ name: 'pt-expires-in-ignored', tier: 'quick', requirements: ['PT-CHARGE-EXPIRES-APPLIED'],
    intent: 'expires_in_seconds is validated but then ignored: every charge expires after the default 3600 s',
    strict: 'the text does not state expires_at = created_at + expires_in_seconds in so many words (PT-CHARGE-EXPIRES-APPLIED carries latitude: warning)' }),
  partnerFault({ name: 'pt-lookup-status-only', tier: 'quick', requirements: ['PT-CHARGE-GET-FIELDS'],
    intent: 'GET by id is a slim polling view: {id, status} only, external_ref and the other charge fields left out',
    strict: 'the lookup\'s fields are "not shown beyond being the current state" (PT-CHARGE-GET-FIELDS carries latitude: warning)' }),
  partnerFault({ name: 'pt-payouts-route-live', tier: 'quick', requirements: ['PT-PAYOUT-UNAVAILABLE'],
    intent: 'the in-development payouts route is mounted (feature flag left on): POST /v1/business/payouts answers 200 with a payout',
    strict: 'the status of an unavailable route is not shown and the route is announced (PT-PAYOUT-UNAVAILABLE carries latitude: warning)' }),
  partnerFault({ name: 'pt-list-no-lazy-expiry', tier: 'timer', requirements: ['PT-CHARGE-EXPIRY-LIST'],
    intent: 'expiry is settled only by GET by id: the list keeps showing a charge past expires_at as pending until it is looked up',
    strict: 'whether a listing counts as a lookup is not stated (PT-CHARGE-EXPIRY-LIST carries latitude: warning)' }),

  // ── rel-f: states matrix (a refused transition that still has an effect) ─────────────────────
  partnerFault({ name: 'pt-cancel-paid-refunds', tier: 'quick', requirements: ['PT-CHARGE-CANCEL-409'],
    intent: 'the refund step of cancel runs before the state guard: cancel of a paid charge answers 409 but reverses its capture in the ledger (a refund.reversal posting)' }),
  partnerFault({ name: 'pt-pay-canceled-captures', tier: 'quick', requirements: ['PT-ATOMIC-CAPTURE'],
    intent: 'the capture is posted before the state guard of pay: pay of a canceled charge answers 409 but its value is captured in the ledger' }),

  // ── rel-e (statuses and enums) ─────────────────────────────────────────────────────────────
  partnerFault({ name: 'pt-list-unknown-status-500', tier: 'quick', requirements: ['PT-LIST-STATUS-FILTER'],
    intent: 'the status query is cast to the state enum without a guard: a value that is no charge state crashes the list (500)' }),

  // rel-bc: echo and events against resources (relations b and c)
  partnerFault({ name: 'pt-lookup-description-139', tier: 'quick', requirements: ['PT-CHARGE-FIELD-DESC'],
    intent: 'the lookup reads description from a column one character short: a description over 139 characters comes back cut at 139 (creation and list are whole)' }),
  partnerFault({ name: 'pt-list-external-ref-trimmed', tier: 'quick', requirements: ['PT-CHARGE-EXTREF-UNCHANGED'],
    intent: "the list's serializer trims every string: an external_ref with surrounding spaces comes back trimmed in the list only" }),

  // ── rel-d: isolation (a fault only the isolation relation's cells catch) ──────────────────
  partnerFault({ name: 'pt-list-status-filter-leaks-other-account', tier: 'quick', requirements: ['PT-LIST-ACCOUNT-SCOPE'],
    intent: "the status filter is a second query that scopes by environment and status only: GET /business/pix-charges?status=… also lists other accounts' charges (the unfiltered list is scoped)" }),
] as const;

export type PartnerFaultName = (typeof DEFINED_FAULTS)[number]['name'] | (typeof PROOF_FAULTS)[number]['name'];

/** What the partner modules see of `PartnerOptions.faults`: `has` only accepts a known name. */
export interface PartnerFaultSwitch {
  has(name: PartnerFaultName): boolean;
}

export const PARTNER_FAULTS: FaultSpec[] = [...DEFINED_FAULTS, ...PROOF_FAULTS];
