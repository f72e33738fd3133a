/**
 * The reference's personalities: every point where the contract leaves the implementation a free
 * choice, with the choice of the `default` personality and of the `alt` personality (which takes
 * the other option everywhere). A mix (`mix:SEED`) draws each choice independently from all its
 * options (default, alt and any further ones), deterministically per seed, so choices meet in
 * combinations neither fixed personality tries. `REFERENCE_PERSONALITY=default|alt|mix:SEED`
 * selects one (reference/server.ts).
 *
 * This table is the single source: `reference/DECISIONS.md` ("Personalities") mirrors it row by
 * row (test/reference-personality.test.ts renders the table and compares), and every row quotes
 * the contract sentence that leaves the point open. The suite must pass both personalities: a
 * failure against `alt` is either a bug of the alt choice (fix it here) or an over-strict check.
 */

import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';

/** The two fixed personalities. */
export type PersonalityName = 'default' | 'alt';
export const PERSONALITY_NAMES: readonly PersonalityName[] = ['default', 'alt'];
/** A mix: every choice drawn from its options with this seed. */
export type MixName = `mix:${number}`;
/** What REFERENCE_PERSONALITY names: a fixed personality or a mix. */
export type PersonalitySpec = PersonalityName | MixName;

export interface Choice<T> {
  api: 'gateway' | 'partner' | 'both';
  /** the contract's words that leave the point open (gateway-api.md / partner-cashin-api.md / README) */
  sentence: string;
  /** what is being chosen, in a few words */
  what: string;
  default: T;
  alt: T;
  /** further options, each as conforming as default and alt, that only a mix draws */
  more?: readonly T[];
}

function choice<T>(c: Choice<T>): Choice<T> {
  return c;
}

/** Gateway error body styles: the two shapes the contract shows. */
export type ErrorShape = 'success-false' | 'error-code';
export type TimestampPrecision = 'ms' | 's' | 'us';
/** How a timestamp writes its offset: UTC as `Z` or `+00:00`, or Brasília time. */
export type Offset = 'Z' | '+00:00' | '-03:00';

export const CHOICES = {
  // ── both APIs: how a JSON answer is written ─────────────────────────────────────────────────
  jsonIndent: choice<0 | 2 | 4>({
    api: 'both', sentence: 'All bodies are JSON. / Bodies are JSON.', what: 'indentation of JSON response bodies (0 = compact)', default: 0, alt: 2, more: [4],
  }),
  jsonSortKeys: choice<boolean>({
    api: 'both', sentence: 'All bodies are JSON. / Bodies are JSON.', what: 'object keys of response bodies sorted alphabetically (JSON objects are unordered)', default: false, alt: true,
  }),
  headerCase: choice<'lower' | 'title'>({
    api: 'both', sentence: 'All bodies are JSON. (header names are case-insensitive, RFC 9110 §5.1; the contract names none for responses)', what: 'case of response header names', default: 'lower', alt: 'title',
  }),
  jsonCharset: choice<boolean>({
    api: 'both', sentence: 'All bodies are JSON. / Bodies are JSON.', what: '`; charset=utf-8` on the response Content-Type', default: true, alt: false,
  }),
  rateLimitPerSecond: choice<number>({
    api: 'both', sentence: 'Every route can answer 401 and 429. / Rate-limit thresholds and maximum amounts: not shown. / Rate limits: not shown.', what: 'requests per second per credential before 429 + Retry-After (0 = no limit)', default: 0, alt: 60,
  }),
  gwRateLimitedBody: choice<'json' | 'text'>({
    api: 'gateway', sentence: '| 429 | rate limited; body shape: not shown |', what: 'body of a gateway 429: `{success: false, message}` or plain text', default: 'json', alt: 'text',
  }),
  retryAfterFormat: choice<'seconds' | 'http-date'>({
    api: 'both', sentence: '429 | rate limited; body shape: not shown', what: 'Retry-After of a 429 as delta-seconds or HTTP-date (RFC 9110 §10.2.3 allows both)', default: 'seconds', alt: 'http-date',
  }),

  // ── gateway: authentication ─────────────────────────────────────────────────────────────────
  gwTokenTtlMs: choice<number>({
    api: 'gateway', sentence: 'The token lifetime is given by `expiresIn` (sample 60000 ms)', what: 'token lifetime (when REFERENCE_TOKEN_TTL_MS is not set)', default: 60_000, alt: 90_000,
  }),
  gwTokenAlg: choice<'HS256' | 'HS512'>({
    api: 'gateway', sentence: '200: `success` boolean, `token` string (JWT)', what: 'JWT signing algorithm', default: 'HS256', alt: 'HS512',
  }),
  gwAuthExpiresAt: choice<boolean>({
    api: 'gateway', sentence: '200: `success` boolean, `token` string (JWT), `tokenType` string (Bearer), `expiresIn` integer in milliseconds.', what: 'an extra `expiresAt` (ISO 8601) in the auth answer', default: false, alt: true,
  }),
  gwUnauthorizedShape: choice<ErrorShape>({
    api: 'gateway', sentence: 'Two body shapes occur: `{success: false, message}` and `{error: <CODE>, message}`.', what: 'body shape of 401', default: 'success-false', alt: 'error-code',
  }),
  gwWwwAuthenticate: choice<string>({
    api: 'gateway', sentence: '401 | token missing, invalid or expired', what: 'WWW-Authenticate of a 401', default: 'Bearer', alt: 'Bearer realm="gateway", error="invalid_token"',
  }),
  gwUnknownRouteBeforeAuth: choice<boolean>({
    api: 'gateway', sentence: 'All routes except `POST /api/auth` require `Authorization: Bearer <ACCESS_TOKEN>`.', what: 'an undocumented path answers 404 before the token is checked (false: 401 first)', default: true, alt: false,
  }),

  // ── gateway: errors ─────────────────────────────────────────────────────────────────────────
  gwPixChargeInvalidStatus: choice<400 | 422>({
    api: 'gateway', sentence: '400 | invalid body, … / 422 | validation failure; message points to the field', what: 'status of a field-rule failure at POST /api/v1/pix/in/qrcode', default: 400, alt: 422,
  }),
  gwTransferInvalidStatus: choice<400 | 422>({
    api: 'gateway', sentence: '400 | invalid body, … / 422 | validation failure; message points to the field', what: 'status of a field-rule failure at POST /api/v1/pix/out/pixkey', default: 400, alt: 422,
  }),
  gwCardInvalidStatus: choice<400 | 422>({
    api: 'gateway', sentence: '400 | invalid body, … / 422 | validation failure; message points to the field', what: 'status of a field-rule failure at POST /api/v1/card (currency stays 400: "missing or BRL gives 400")', default: 400, alt: 422,
  }),
  gwWebhookInvalidStatus: choice<400 | 422>({
    api: 'gateway', sentence: '400 | invalid body, … / 422 | validation failure; message points to the field', what: 'status of a field-rule failure at POST /api/v1/webhook', default: 400, alt: 422,
  }),
  gwErrorShape: choice<ErrorShape>({
    api: 'gateway', sentence: 'Two body shapes occur: `{success: false, message}` and `{error: <CODE>, message}`. … The full list of codes: not shown.', what: 'body shape of 400, 403, 405 and 422', default: 'success-false', alt: 'error-code',
  }),
  gwMessageLanguage: choice<'en' | 'pt'>({
    api: 'gateway', sentence: '422 | validation failure; message points to the field', what: 'wording of `message` (alt: Portuguese; the field path is named either way)', default: 'en', alt: 'pt',
  }),

  // ── gateway: identifiers and timestamps ────────────────────────────────────────────────────
  gwChargeIdFormat: choice<'uuid' | 'numeric'>({
    api: 'gateway', sentence: '| id | string | transaction id |', what: 'PIX charge id format (numeric-looking string in alt)', default: 'uuid', alt: 'numeric',
  }),
  gwTransferIdFormat: choice<'uuid' | 'prefixed'>({
    api: 'gateway', sentence: '| id | string | transfer id |', what: 'PIX transfer id format (`pixout_` + hex in alt)', default: 'uuid', alt: 'prefixed',
  }),
  gwCardIdFormat: choice<'uuid' | 'prefixed'>({
    api: 'gateway', sentence: '`id` (string), `status` (`paid`, `pending` or `refused`)', what: 'card charge id format (`card_` + hex in alt)', default: 'uuid', alt: 'prefixed',
  }),
  gwTimestampPrecision: choice<TimestampPrecision>({
    api: 'gateway', sentence: '| createdAt, updatedAt, processedAt | string | ISO 8601 timestamps, on lookup |', what: 'fraction digits of gateway timestamps', default: 'ms', alt: 'us', more: ['s'],
  }),
  gwTimestampOffset: choice<Offset>({
    api: 'gateway', sentence: '| createdAt, updatedAt, processedAt | string | ISO 8601 timestamps, on lookup | (no time zone is stated)', what: 'UTC offset of gateway timestamps', default: 'Z', alt: '-03:00', more: ['+00:00'],
  }),

  // ── gateway: PIX charges ────────────────────────────────────────────────────────────────────
  gwChargeFee: choice<'percent-0.99-ceil' | 'flat-35' | 'zero'>({
    api: 'gateway', sentence: '| fees | integer | cents |', what: 'fee of a PIX charge', default: 'percent-0.99-ceil', alt: 'flat-35', more: ['zero'],
  }),
  gwChargeExtraFields: choice<boolean>({
    api: 'gateway', sentence: 'PIX charge (response `data`) | id | pix.emv | pix.qrCode | status | fees', what: 'undocumented fields (amountInCents, description, createdAt, updatedAt, paidAt) in the PIX charge', default: true, alt: false,
  }),
  gwQrImage: choice<{ errorCorrectionLevel: 'M' | 'H'; scale: number; margin: number }>({
    api: 'gateway', sentence: '| pix.qrCode | string | PNG image, base64 |', what: 'QR image parameters', default: { errorCorrectionLevel: 'M', scale: 4, margin: 2 }, alt: { errorCorrectionLevel: 'H', scale: 6, margin: 4 },
  }),
  gwEmvMerchant: choice<{ host: string; name: string; city: string }>({
    api: 'gateway', sentence: '| pix.emv | string | copy-and-paste payload (EMV standard) |', what: 'payload location host, merchant name and city in the BR Code', default: { host: 'pix.sandbox.paygate.example', name: 'PAYGATE SANDBOX', city: 'SAO PAULO' }, alt: { host: 'qr.alt-psp.example', name: 'LOJA ALTERNATIVA LTDA', city: 'RIO DE JANEIRO' },
  }),
  gwNullOptionalFields: choice<'refuse' | 'absent'>({
    api: 'gateway', sentence: '| description | string | no | max 140 the service; shown on payer statement |', what: 'an optional request field sent as `null`', default: 'refuse', alt: 'absent',
  }),
  gwMaxAmountCents: choice<number>({
    api: 'gateway', sentence: 'Rate-limit thresholds and maximum amounts: not shown.', what: 'largest amount accepted on charges, transfers and cards', default: 10_000_000_000, alt: 500_000_000,
  }),
  gwPixCustomerEmailFormat: choice<boolean>({
    api: 'gateway', sentence: '| email | string | no | |', what: 'PIX charge `customer.email` must look like an e-mail', default: false, alt: true,
  }),
  gwCharacterCount: choice<'code-points' | 'utf16-units'>({
    api: 'gateway', sentence: 'How characters are counted (code points vs UTF-16 units) is not stated (contract README)', what: 'unit of the 140-character description limit', default: 'code-points', alt: 'utf16-units',
  }),
  gwDocumentPunctuation: choice<'refuse' | 'accept'>({
    api: 'gateway', sentence: 'Known cases: … documents sent with punctuation where the text says "digits only" (contract README: ambiguous, a warning)', what: 'a PIX customer document sent with punctuation (`529.982.247-25`)', default: 'refuse', alt: 'accept',
  }),
  gwAlphanumericCnpj: choice<boolean>({
    api: 'gateway', sentence: 'the alphanumeric CNPJ … where the text says "digits only" (accepting it is expected of a current implementation, so rejecting a valid one is a warning) (contract README)', what: 'a valid alphanumeric CNPJ is accepted as PIX customer document', default: true, alt: false,
  }),
  gwDuplicateSplitRecipients: choice<boolean>({
    api: 'gateway', sentence: '| percentage | number | sum over all entries must not exceed 100 |', what: 'two `splits[]` entries may name the same e-mail', default: true, alt: false,
  }),
  gwTrackingLookupOrder: choice<'origin-referer-postback' | 'postback-referer-origin'>({
    api: 'gateway', sentence: 'A field missing from the object is looked up by the same name in the query string of the origin URL (Origin/Referer) and of `postbackUrl`.', what: 'which URL wins when several carry the parameter', default: 'origin-referer-postback', alt: 'postback-referer-origin',
  }),
  gwSimulationBody: choice<'ignore' | 'refuse'>({
    api: 'gateway', sentence: '- No body. 200: `success`, `message`, `data{id, status, endToEndId}`', what: 'a body sent to /pay or /complete', default: 'ignore', alt: 'refuse',
  }),

  // ── gateway: PIX transfers ──────────────────────────────────────────────────────────────────
  gwTransferFee: choice<'percent-0.5-floor' | 'zero'>({
    api: 'gateway', sentence: '| netAmount | integer | cents | / | fees | integer | cents |', what: 'fee of a PIX transfer', default: 'percent-0.5-floor', alt: 'zero',
  }),
  gwManualReviewAboveCents: choice<number>({
    api: 'gateway', sentence: '| (creation, sandbox) | POST /api/v1/pix/out/pixkey | sandbox credentials; no manual review | banking_processing |', what: 'transfers of at least this amount are held for manual review (`pending`, /complete → 400); 0 = never', default: 0, alt: 1_000_000,
  }),
  gwIdempotencyKeyUuid: choice<boolean>({
    api: 'gateway', sentence: 'Required header `x-idempotency-key`: a unique value (UUID) per operation.', what: 'the key must be a UUID (false: any non-empty text)', default: false, alt: true,
  }),
  gwIdempotencyRemembersFailures: choice<boolean>({
    api: 'gateway', sentence: 'Resending with the same key and body returns the original response and never duplicates the transfer.', what: 'a refused request (4xx) is remembered under its key and replayed', default: false, alt: true,
  }),
  gwIdempotentReplayHeader: choice<boolean>({
    api: 'gateway', sentence: 'Resending with the same key and body returns the original response', what: '`Idempotent-Replayed: true` on a replay', default: false, alt: true,
  }),
  gwTransferEndToEndBeforeCompletion: choice<'omit' | 'null'>({
    api: 'gateway', sentence: '| endToEndId | string | on lookup; present once completed |', what: '`endToEndId` of a transfer not yet completed', default: 'omit', alt: 'null',
  }),
  gwTransferLookupMessage: choice<boolean>({
    api: 'gateway', sentence: '200: `success`, `data` (PIX transfer including endToEndId, createdAt, updatedAt, processedAt).', what: 'a `message` in the transfer lookup answer', default: true, alt: false,
  }),
  gwInsufficientBalanceRefuses: choice<boolean>({
    api: 'gateway', sentence: 'States: `pending`, `banking_processing` (sandbox), `completed`, `refused`. … Transitions: not shown.', what: '/complete without balance also moves the transfer to `refused` (event transfer_canceled)', default: false, alt: true,
  }),

  // ── gateway: card ───────────────────────────────────────────────────────────────────────────
  gwCardSuccessStatus: choice<200 | 201>({
    api: 'gateway', sentence: 'Response: `success`, `data` (Card charge); the sample success status code is 201.', what: 'status of a created card charge', default: 201, alt: 200,
  }),
  gwCardRefusedSuccessFlag: choice<boolean>({
    api: 'gateway', sentence: 'Response: `success`, `data` (Card charge)', what: '`success` of a refused card charge', default: true, alt: false,
  }),
  gwCardMissingBillingAddress: choice<'refused-sale' | 'invalid-body'>({
    api: 'gateway', sentence: '| customer | object | yes | Customer (card), billingAddress required; without it the charge is refused before reaching the issuer |', what: 'a card request without a complete billing address', default: 'refused-sale', alt: 'invalid-body',
  }),
  gwCardTokenPrefix: choice<boolean>({
    api: 'gateway', sentence: '| card.token | string | yes | the service id (format `ctoken_...`) … | vs "Sandbox: any token is approved" (README: when the documents contradict themselves, either reading)', what: 'card.token must start with `ctoken_`', default: false, alt: true,
  }),
  gwCardRequiresActionField: choice<boolean>({
    api: 'gateway', sentence: 'Other fields, including where `requiresAction` and `clientSecret` … sit: not shown.', what: '`requiresAction: false` on every card charge without a challenge', default: false, alt: true,
  }),
  gwCardEmailFormat: choice<boolean>({
    api: 'gateway', sentence: '| email | string | yes | payer e-mail |', what: 'card `customer.email` must look like an e-mail (false: any non-empty text)', default: true, alt: false,
  }),

  // ── gateway: transaction lookup, balance, webhooks ─────────────────────────────────────────
  gwTransactionEnvelope: choice<boolean>({
    api: 'gateway', sentence: 'Generic status lookup for card transactions and PIX charges, using the id returned at creation. Response body: not shown.', what: 'the lookup answers `{success, data}` (false: the bare transaction object)', default: true, alt: false,
  }),
  gwTransactionFindsTransfers: choice<boolean>({
    api: 'gateway', sentence: 'Generic status lookup for card transactions and PIX charges', what: 'the generic lookup also finds PIX transfers', default: false, alt: true,
  }),
  gwBalanceExtraFields: choice<boolean>({
    api: 'gateway', sentence: '200: `success`, `data{pix{balance}, pixBlocked{balance}, reserve{balance}}` (Balance).', what: 'extra `currency` and `updatedAt` in the balance', default: false, alt: true,
  }),
  gwWebhookListEnvelope: choice<boolean>({
    api: 'gateway', sentence: 'Lists webhooks. Response body: not shown.', what: 'the list answers `{success, data: [...]}` (false: a bare array)', default: true, alt: false,
  }),
  gwWebhookListOrder: choice<'oldest-first' | 'newest-first'>({
    api: 'gateway', sentence: 'Lists webhooks. Response body: not shown.', what: 'order of the webhook list', default: 'oldest-first', alt: 'newest-first',
  }),
  gwWebhookDeleteStatus: choice<200 | 204>({
    api: 'gateway', sentence: 'Removes a webhook. Response body: not shown.', what: 'DELETE answer: 200 `{success, message}` or 204 without body', default: 200, alt: 204,
  }),
  gwWebhookEmptyEvents: choice<boolean>({
    api: 'gateway', sentence: 'Body: `url` string (required), `events` array of event names (required).', what: 'an empty `events` array is accepted', default: false, alt: true,
  }),
  gwWebhookFirstId: choice<number>({
    api: 'gateway', sentence: '| id | integer | |', what: 'first webhook id (alt: beyond 32 bits)', default: 1, alt: 4_294_967_301,
  }),
  gwWebhookSecretFormat: choice<'whsec-hex' | 'base64'>({
    api: 'gateway', sentence: '| signatureSecret | string | returned on creation; used to verify signatures |', what: 'format of signatureSecret', default: 'whsec-hex', alt: 'base64',
  }),

  // ── gateway: webhook deliveries ─────────────────────────────────────────────────────────────
  gwDispatchDelayMs: choice<number>({
    api: 'gateway', sentence: 'The receiver answers HTTP 2xx quickly and processes asynchronously. … Retry schedule and delivery timeout: not shown.', what: 'delay before the first delivery attempt', default: 0, alt: 1_500,
  }),
  gwRetryDelaysMs: choice<readonly number[]>({
    api: 'gateway', sentence: 'Retry schedule and delivery timeout: not shown.', what: 'gaps before redeliveries', default: [2_000, 10_000, 60_000], alt: [1_000, 5_000, 30_000, 120_000, 600_000],
  }),
  gwDeliveryTimeoutMs: choice<number>({
    api: 'gateway', sentence: 'Retry schedule and delivery timeout: not shown.', what: 'per-attempt delivery timeout', default: 5_000, alt: 15_000,
  }),
  gwSignatureTimestampUnit: choice<'s' | 'ms'>({
    api: 'gateway', sentence: '| ServiceGateway-Signature | `t=<epoch>,v1=<hmac>`, sent only when the webhook has a signatureSecret |', what: 'unit of `t` (the signed text uses the same value)', default: 's', alt: 'ms',
  }),
  gwWebhookJsonIndent: choice<0 | 2 | 4>({
    api: 'gateway', sentence: 'Webhooks are HTTP POST callbacks with a JSON body … over the text `<timestamp>.<JSON of the payload>`', what: 'indentation of the callback body (the signature covers the bytes sent)', default: 0, alt: 2, more: [4],
  }),
  gwWebhookKeyOrder: choice<'envelope-first' | 'resource-first'>({
    api: 'gateway', sentence: 'Transaction events: `id` (string UUID), `type` (`transaction`), `event`, `scope` (`user`), `transaction{…}`', what: 'key order of the callback payload', default: 'envelope-first', alt: 'resource-first',
  }),
  gwWebhookUnknownValues: choice<'null' | 'omit'>({
    api: 'gateway', sentence: '`transaction{id, amount (integer cents), status, pix{endToEndId, payerInfo{name, document}}}`', what: 'payload `endToEndId`/`payerInfo` before they exist', default: 'null', alt: 'omit',
  }),
  gwWebhookExtraFields: choice<boolean>({
    api: 'gateway', sentence: 'Transaction events: `id` (string UUID), `type` (`transaction`), `event`, `scope` (`user`), `transaction{…}`', what: 'extra `createdAt` in the payload', default: false, alt: true,
  }),
  gwWebhookHeaderCase: choice<'title' | 'lower'>({
    api: 'gateway', sentence: '| Content-Type | application/json | / | User-Agent | Gateway | / | ServiceGateway-Signature | … |', what: 'case of callback header names', default: 'title', alt: 'lower',
  }),
  gwUpdatedEvents: choice<boolean>({
    api: 'gateway', sentence: '| PIX IN | transaction_updated | PIX charge updated to another status | / | PIX OUT | transfer_updated | transfer updated to another status |', what: 'transaction_updated on payment and transfer_updated on completion, besides the specific event', default: false, alt: true,
  }),

  // ── partner ─────────────────────────────────────────────────────────────────────────────────
  ptChargeIdFormat: choice<'prefixed' | 'uuid'>({
    api: 'partner', sentence: '| id | string | charge id |', what: 'charge id format', default: 'prefixed', alt: 'uuid',
  }),
  ptProvider: choice<string>({
    api: 'partner', sentence: '| provider | string | processor label; allowed values: not shown |', what: 'provider label', default: 'reference-sandbox', alt: 'psp-alt',
  }),
  ptEmvMerchant: choice<{ host: string; name: string; city: string }>({
    api: 'partner', sentence: '| qr_code | string | copy-and-paste EMV payload |', what: 'payload location host, merchant name and city in the BR Code', default: { host: 'pix.paygate-reference.test', name: 'PAYGATE REFERENCE', city: 'SAO PAULO' }, alt: { host: 'qr.alt-partner.example', name: 'PARCEIRO ALT', city: 'CURITIBA' },
  }),
  ptAbsentOptionalFields: choice<'null' | 'omit'>({
    api: 'partner', sentence: '| customer_email | string | optional | / | e2e_id | string | end-to-end identifier |', what: 'charge fields without a value (description, external_ref, customer_email, e2e_id)', default: 'null', alt: 'omit',
  }),
  ptTimestampPrecision: choice<TimestampPrecision>({
    api: 'partner', sentence: '| expires_at | string | ISO 8601 UTC |', what: 'fraction digits of charge timestamps', default: 'ms', alt: 's', more: ['us'],
  }),
  ptUtcDesignator: choice<'Z' | '+00:00'>({
    api: 'partner', sentence: '| created_at | string | ISO 8601 UTC |', what: 'how UTC is written in charge timestamps', default: 'Z', alt: '+00:00',
  }),
  ptEventCreatedAtOffset: choice<Offset>({
    api: 'partner', sentence: '`id` (string), `type` (event name), `created_at` (ISO 8601), `data{amount_cents, e2e_id, external_ref}`.', what: 'offset of a webhook event\'s created_at (UTC is not stated there)', default: 'Z', alt: '-03:00', more: ['+00:00'],
  }),
  ptLedgerCreatedAtOffset: choice<Offset>({
    api: 'partner', sentence: 'Each `transactions[]` item: `id` string, `event_type` string …, `created_at` ISO 8601', what: 'offset of a ledger posting\'s created_at (UTC is not stated there)', default: 'Z', alt: '-03:00', more: ['+00:00'],
  }),
  ptCaptureFee: choice<'percent-0.99-floor' | 'percent-1.5-round' | 'zero'>({
    api: 'partner', sentence: '`entries[]` each with `account_code` string, `direction` (`debit` or `credit`), `amount_cents` integer.', what: 'fee taken from a capture (zero: no fee entry)', default: 'percent-0.99-floor', alt: 'percent-1.5-round', more: ['zero'],
  }),
  ptCaptureReserve: choice<'none' | 'split-10pct-floor' | 'hold-posting-5pct-ceil' | 'hold-entries-10pct-floor'>({
    api: 'partner', sentence: '| reserve_cents | integer | held in risk reserve, if applicable |',
    what: 'part of a capture\'s net withheld into reserve_cents (available_cents rises by the rest): none; 10 % rounded down, credited to the reserve account in the capture posting; 5 % rounded up, moved from the merchant to the reserve account by a second posting `reserve.hold`; 10 % rounded down, moved within the capture posting (debit merchant, credit reserve)',
    default: 'none', alt: 'split-10pct-floor', more: ['hold-posting-5pct-ceil', 'hold-entries-10pct-floor'],
  }),
  ptLedgerAccountCodes: choice<{ clearing: string; merchant: string; fee: string; reserve: string }>({
    api: 'partner', sentence: '`entries[]` each with `account_code` string', what: 'ledger account codes', default: { clearing: 'psp_clearing', merchant: 'merchant_available', fee: 'fee_revenue', reserve: 'merchant_reserve' }, alt: { clearing: '1.1.01-pix-settlement', merchant: '2.1.01-merchant', fee: '3.1.01-fees', reserve: '2.1.02-risk-reserve' },
  }),
  ptLedgerOrder: choice<'newest-first' | 'oldest-first'>({
    api: 'partner', sentence: '| transactions[] | array | last 50 ledger postings |', what: 'order of the 50 postings shown', default: 'newest-first', alt: 'oldest-first',
  }),
  ptListEnvelope: choice<'data' | 'items-count' | 'bare-array'>({
    api: 'partner', sentence: 'Lists the account charges, newest first, up to 200 records. … Response envelope and pagination: not shown.', what: 'list envelope: `{data: [...]}`, `{items: [...], count, has_more}` or a bare array', default: 'data', alt: 'items-count', more: ['bare-array'],
  }),
  ptListUnknownStatus: choice<'422' | 'empty-list'>({
    api: 'partner', sentence: 'Optional query `status` filters by one of the charge states.', what: 'answer to `?status=` with a value that is no charge state', default: '422', alt: 'empty-list',
  }),
  ptCancelResponse: choice<'200-charge' | '204-empty' | '200-id-status'>({
    api: 'partner', sentence: 'Cancels a charge that is still pending; otherwise 409. Response body: not shown.', what: 'answer to a successful cancel: the charge, no body, or `{id, status}`', default: '200-charge', alt: '204-empty', more: ['200-id-status'],
  }),
  ptPayResponse: choice<'charge' | 'id-status' | '204-empty'>({
    api: 'partner', sentence: 'Confirms the charge as if the PIX were paid … Production answers 403. Response body: not shown.', what: 'answer to a successful pay: 200 with the charge, 200 with `{id, status}`, or 204 without body', default: 'charge', alt: 'id-status', more: ['204-empty'],
  }),
  ptPayAlreadyPaid: choice<'409' | '200-no-effect'>({
    api: 'partner', sentence: '| pending | payment confirmed (or sandbox simulation route) | before expires_at | paid | terminal; … | (the answer to paying a paid charge is not shown)', what: 'pay of a charge already paid: 409, or the answer of a successful pay (ptPayResponse) without a second capture', default: '409', alt: '200-no-effect',
  }),
  ptReplayHeader: choice<boolean>({
    api: 'partner', sentence: 'Idempotency: same key and same body returns the original response without repeating the effect', what: '`Idempotent-Replayed: true` on a replay', default: true, alt: false,
  }),
  ptIdempotencyRemembers422: choice<boolean>({
    api: 'partner', sentence: 'Idempotency: same key and same body returns the original response without repeating the effect', what: 'a 422 is remembered under its key (replayed; a different body then gets 409)', default: false, alt: true,
  }),
  ptIdempotencySameBody: choice<'canonical-json' | 'raw-bytes'>({
    api: 'partner', sentence: 'same key and same body returns the original response …; same key with a different body gives 409', what: 'what "same body" compares', default: 'canonical-json', alt: 'raw-bytes',
  }),
  ptDetailLanguage: choice<'en' | 'pt'>({
    api: 'partner', sentence: 'Body: `{detail: <readable message>}`. / 422 | invalid request body; detail points to the field', what: 'wording of `detail` (alt: Portuguese; the field is named either way)', default: 'en', alt: 'pt',
  }),
  ptValidationOrder: choice<'amount-first' | 'expiry-first'>({
    api: 'partner', sentence: '422 | invalid request body; detail points to the field', what: 'which invalid field is reported when several are', default: 'amount-first', alt: 'expiry-first',
  }),
  ptNullOptionalFields: choice<'absent' | 'refuse'>({
    api: 'partner', sentence: '| description | string | no | max 300 the service |', what: 'an optional request field sent as `null`', default: 'absent', alt: 'refuse',
  }),
  ptUnknownRouteBeforeAuth: choice<boolean>({
    api: 'partner', sentence: 'All routes need `Authorization: Bearer <API_KEY>`.', what: 'an undocumented path answers 404 before the key is checked (false: 401 first)', default: false, alt: true,
  }),
  ptWwwAuthenticate: choice<string>({
    api: 'partner', sentence: '401 | API key missing, invalid or revoked', what: 'WWW-Authenticate of a 401', default: 'Bearer', alt: 'Bearer realm="partner"',
  }),
  ptChargeExtraFields: choice<boolean>({
    api: 'partner', sentence: 'Response fields: not shown beyond being the current state of the charge.', what: 'extra `object` and `livemode` on the charge', default: false, alt: true,
  }),
  ptCharacterCount: choice<'code-points' | 'utf16-units'>({
    api: 'partner', sentence: 'How characters are counted (code points vs UTF-16 units) is not stated (contract README)', what: 'unit of the 300/120-character limits', default: 'code-points', alt: 'utf16-units',
  }),

  // ── partner: webhook deliveries ─────────────────────────────────────────────────────────────
  ptWebhookJsonIndent: choice<0 | 2 | 4>({
    api: 'partner', sentence: 'over `<timestamp>.<raw request body>`. The raw body, not a re-serialized JSON, must be used.', what: 'indentation of the event body (signed as sent)', default: 0, alt: 2, more: [4],
  }),
  ptWebhookKeyOrder: choice<'id-first' | 'data-first'>({
    api: 'partner', sentence: '`id` (string), `type` (event name), `created_at` (ISO 8601), `data{amount_cents, e2e_id, external_ref}`.', what: 'key order of the event body', default: 'id-first', alt: 'data-first',
  }),
  ptWebhookNullFields: choice<'null' | 'omit'>({
    api: 'partner', sentence: '`data{amount_cents, e2e_id, external_ref}`', what: '`e2e_id`/`external_ref` without a value in an event', default: 'null', alt: 'omit',
  }),
  ptWebhookHeaderCase: choice<'lower' | 'title'>({
    api: 'partner', sentence: 'Webhook signature: header `X-Service-Signature` with `t=<epoch>,v1=<hmac>`.', what: 'case of event header names', default: 'lower', alt: 'title',
  }),
  ptSignatureHexCase: choice<'lower' | 'upper'>({
    api: 'partner', sentence: '`v1` is the hex HMAC-SHA256, keyed with the endpoint secret', what: 'case of the hex signature (the gateway says lowercase; the partner does not)', default: 'lower', alt: 'upper',
  }),
  ptDispatchDelayMs: choice<number>({
    api: 'partner', sentence: 'Every state change sends a signed POST to that URL.', what: 'delay before the first delivery attempt', default: 0, alt: 1_500,
  }),
  ptRetryBaseMs: choice<number>({
    api: 'partner', sentence: 'Redelivery: up to 8 attempts per event, exponential backoff doubling per attempt with a cap of 5 minutes', what: 'first redelivery gap (when REFERENCE_PARTNER_RETRY_BASE_MS is not set)', default: 1_000, alt: 2_000,
  }),
} as const;

export type ChoiceKey = keyof typeof CHOICES;
type ValueOf<K extends ChoiceKey> = (typeof CHOICES)[K] extends Choice<infer T> ? T : never;

/** One personality: the value of every choice. */
export type Personality = { readonly name: PersonalitySpec } & { readonly [K in ChoiceKey]: ValueOf<K> };

/** Every option of a choice: default, alt, then the further ones (a mix draws among them). */
export function optionsOf<T>(c: Choice<T>): readonly T[] {
  return [c.default, c.alt, ...(c.more ?? [])];
}

/** The seed of a mix name, undefined for a fixed personality. */
export function mixSeed(name: PersonalitySpec): number | undefined {
  return name.startsWith('mix:') ? Number(name.slice(4)) : undefined;
}

/**
 * The option a mix draws for one choice: a hash of the seed and the choice's key, so each choice
 * is drawn independently of the others and of the table's order (a new row changes no other draw).
 */
export function drawOption<T>(seed: number, key: string, c: Choice<T>): T {
  const options = optionsOf(c);
  const index = createHash('sha256').update(`mix:${seed}:${key}`).digest().readUInt32BE(0) % options.length;
  return options[index] as T;
}

/**
 * One personality's values. `keepDefault` names choices that keep the default value (for
 * bisecting which choice a check trips over: `REFERENCE_PERSONALITY_KEEP=key,key`).
 */
export function personality(name: PersonalitySpec, keepDefault: readonly string[] = []): Personality {
  const values: Record<string, unknown> = { name };
  for (const key of keepDefault) {
    if (!(key in CHOICES)) throw new Error(`reference: unknown personality choice "${key}" in REFERENCE_PERSONALITY_KEEP`);
  }
  const seed = mixSeed(name);
  for (const [key, c] of Object.entries(CHOICES) as [ChoiceKey, Choice<unknown>][]) {
    if (keepDefault.includes(key)) values[key] = c.default;
    else values[key] = seed === undefined ? c[name as PersonalityName] : drawOption(seed, key, c);
  }
  return values as Personality;
}

/** `REFERENCE_PERSONALITY_KEEP`: comma-separated choice keys that keep their default value. */
export function parseKeepDefault(value: string | undefined): string[] {
  return (value ?? '').split(',').map((k) => k.trim()).filter(Boolean);
}

export const DEFAULT_PERSONALITY: Personality = personality('default');

/** `REFERENCE_PERSONALITY`: unset or empty → default; default, alt or mix:SEED (a non-negative integer); anything else is an error. */
export function parsePersonality(value: string | undefined): PersonalitySpec {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'default') return 'default';
  if (text === 'alt') return 'alt';
  const mix = /^mix:(\d{1,15})$/.exec(text);
  if (mix && Number.isSafeInteger(Number(mix[1]))) return `mix:${Number(mix[1])}`;
  throw new Error(`reference: REFERENCE_PERSONALITY must be default, alt or mix:SEED (SEED a non-negative integer), got "${text}"`);
}

/** The choices where a personality differs from the default, as `key=value` (JSON values). */
export function differencesFromDefault(p: Personality): string[] {
  return (Object.entries(CHOICES) as [ChoiceKey, Choice<unknown>][])
    .filter(([key, c]) => !isDeepStrictEqual(p[key], c.default))
    .map(([key]) => `${key}=${JSON.stringify(p[key])}`);
}

/**
 * One line naming a personality and, for a mix, what it drew away from the default: enough to
 * reproduce a run (the same name draws the same) and to bisect it (REFERENCE_PERSONALITY_KEEP).
 */
export function describePersonality(p: Personality): string {
  if (mixSeed(p.name) === undefined) return `personality ${p.name}`;
  const drawn = differencesFromDefault(p);
  return `personality ${p.name}: ${drawn.length} of ${Object.keys(CHOICES).length} choices away from the default: ${drawn.join(' ')}`;
}

function show(value: unknown): string {
  return `\`${JSON.stringify(value)}\``;
}

/** The DECISIONS.md table, rendered from {@link CHOICES} (a test compares it with the file). */
export function renderDecisionsTable(): string {
  const rows = (Object.entries(CHOICES) as [string, Choice<unknown>][]).map(([key, c], index) => {
    const cell = (text: string): string => text.replace(/\|/g, '\\|');
    const more = (c.more ?? []).map(show).join(', ');
    return `| ${index + 1} | \`${key}\` | ${c.api} | ${cell(c.sentence)} | ${cell(c.what)} | ${cell(show(c.default))} | ${cell(show(c.alt))} | ${cell(more)} |`;
  });
  return ['| # | choice | api | the contract leaves it open | what | default | alt | more (mixes only) |', '|---|---|---|---|---|---|---|---|', ...rows].join('\n');
}
