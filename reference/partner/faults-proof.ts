/**
 * Partner faults written to prove the requirements no earlier fault broke (issue 15, requirement
 * level proof): each is a way a real implementation goes wrong, observable through documented
 * behaviour only, and names every requirement ID it violates (specs/requirements.yaml). Spread into
 * PARTNER_FAULTS by faults.ts; the code checks `faults.has('pt-…')` where the deviation happens.
 */
import { partnerFault } from '../fault-spec.js';


export const PROOF_FAULTS = [
  // ── finance statement ──────────────────────────────────────────────────────────────────────
  partnerFault({ name: 'pt-finance-orm-serialised', tier: 'quick', requirements: ['PT-FIN-MERCHANT-ID', 'PT-FIN-RESERVE', 'PT-FIN-TX-SHAPE'],
    intent: 'the statement is rendered straight from ORM rows: merchant_id and transaction ids are integer primary keys, reserve_cents a Decimal rendered as "0.00"' }),
  partnerFault({ name: 'pt-finance-enveloped', tier: 'quick', requirements: ['PT-FIN-GET'],
    intent: 'the finance route wraps the statement in the framework\'s {"data": …} envelope, so the body is not the statement' }),

  // ── webhooks ───────────────────────────────────────────────────────────────────────────────
  partnerFault({ name: 'pt-webhook-event-bus-format', tier: 'quick', requirements: ['PT-WH-BODY-SHAPE', 'PT-WH-EVENT-TYPES'],
    intent: 'events are serialised by a generic event bus: type is the enum constant (BUSINESS_PIX_CREATED) and created_at the bus\'s epoch seconds (an integer)' }),
  partnerFault({ name: 'pt-webhook-signed-once', tier: 'timer', requirements: ['PT-WH-REDELIVERY-FRESH-T'],
    intent: 'the signature header is computed once when the event is queued: every redelivery carries the first attempt\'s t, so after a capped gap it is older than the 300 s tolerance',
    strict: 'whether a redelivery is signed again with a fresh timestamp is not stated (PT-WH-REDELIVERY-FRESH-T latitude): a stale t is reported as a warning' }),
  partnerFault({ name: 'pt-webhook-no-call-timeout', tier: 'timer', requirements: ['PT-WH-TIMEOUT'],
    intent: 'the webhook HTTP call is made with the client\'s default of no timeout: a receiver answering after 10 s is waited for, and the attempt counts as delivered',
    strict: 'how a delivery answered only after the 10 s timeout is treated is not spelled out; a missing redelivery is reported as a warning' }),
  partnerFault({ name: 'pt-webhook-signature-github-format', tier: 'quick', requirements: ['PT-WH-SIGNATURE-HEADER', 'PT-WH-SIGNATURE'],
    intent: 'signing copied from GitHub: X-Service-Signature is sha256=<hmac of the body alone>, the timestamp in a separate X-Service-Timestamp header' }),

  // ── bodies, authentication, errors ─────────────────────────────────────────────────────────
  partnerFault({ name: 'pt-auth-401-plain-text', tier: 'quick', requirements: ['PT-BODY-JSON', 'PT-ERR-DETAIL-SHAPE'],
    intent: 'the auth middleware answers 401 with its framework default: text/plain "Unauthorized" instead of a JSON {detail}' }),
  partnerFault({ name: 'pt-auth-session-cookie', tier: 'quick', requirements: ['PT-AUTH-BEARER', 'PT-AUTH-401'],
    intent: 'a session middleware left on: authenticated answers set a session cookie, and a later request carrying only that cookie (no Authorization) is served' }),
  partnerFault({ name: 'pt-unknown-id-null-200', tier: 'quick', requirements: ['PT-ERR-404-UNKNOWN', 'PT-ERR-404-OTHER-ACCOUNT'],
    intent: 'the lookup handler serialises the missing record: an unknown charge id answers 200 with the body null' }),
  partnerFault({ name: 'pt-validation-detail-generic', tier: 'quick', requirements: ['PT-ERR-422-FIELD'],
    intent: 'every 422 says only "invalid request body", never which field',
    strict: 'detail is a readable message; the check looks for the field\'s name in it and reports its absence as a warning (PT-ERR-422-FIELD latitude)' }),

  // ── idempotency ────────────────────────────────────────────────────────────────────────────
  partnerFault({ name: 'pt-idempotency-key-required', tier: 'quick', requirements: ['PT-IDEM-OPTIONAL'],
    intent: 'the Idempotency-Key middleware written for payouts (mandatory there) is mounted on pix-charges too: a creation without the header answers 422' }),
  partnerFault({ name: 'pt-idempotency-cache-by-body-hash', tier: 'quick', requirements: ['PT-IDEM-BODY-EQUIVALENCE', 'PT-IDEM-CONFLICT-409'],
    intent: 'idempotency records are cached under key + hash of the raw body: the same key with other bytes (re-ordered JSON, or another body) creates a new charge' }),

  // ── versions, environments, sandbox ────────────────────────────────────────────────────────
  partnerFault({ name: 'pt-routes-unversioned', tier: 'quick', requirements: ['PT-VERSION-V1'],
    intent: 'the routes are mounted without the version prefix: the base address handed out is the bare origin, without /v1',
    strict: 'the base address is the operator\'s configuration; one without /v1 may be the operator\'s mistake, so the check warns' }),
  partnerFault({ name: 'pt-live-key-other-version', tier: 'quick', requirements: ['PT-VERSION-SAME', 'PT-ENV-SAME-ADDRESS'],
    intent: 'production keys are routed to the production deployment, which already serves /v2 only: a production key on the shared /v1 address answers 404' }),
  partnerFault({ name: 'pt-env-from-account-default', tier: 'quick', requirements: ['PT-AUTH-PREFIX-ENV', 'PT-ENV-ISOLATION', 'PT-CHARGE-PAY-PROD-403'],
    intent: 'the environment is read from the account\'s default (sandbox), not from the key prefix: a production key acts in the sandbox' }),
  partnerFault({ name: 'pt-simulation-route-unmounted', tier: 'quick', requirements: ['PT-SANDBOX-SIMULATION', 'PT-CHARGE-PAY-CONFIRMS'],
    intent: 'the pay simulation route is only mounted in development builds: the sandbox answers 404 on POST …/:id/pay' }),
] as const;
