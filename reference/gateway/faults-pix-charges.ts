/**
 * Faults of PIX charges (cash-in) and of the lookups and simulation events around them (issue 15,
 * requirement-level proof): each a realistic slip of an implementation of gateway-api.md "POST
 * /api/v1/pix/in/qrcode", "GET …/{transactionId}", "POST …/{transactionId}/pay (sandbox)", the
 * request's Customer / Item / TrackingParameters / Split tables and "PIX charge (response data)".
 * Spread into GATEWAY_FAULTS (faults.ts); the code path of each is found by searching its name.
 */
import type { FaultSpec } from '../fault-spec.js';
import { gatewayFault as fault } from '../fault-spec.js';


export const PIX_CHARGE_FAULTS: FaultSpec[] = [
  // the response
  fault('gw-pixin-status-enum-name', ['GW-PIXIN-STATUS-ENUM', 'GW-PIXIN-CREATE-PENDING', 'GW-PIXIN-PAY-PAID', 'GW-PIXIN-PAY-200'], "the charge status is serialised with the enum constant's name: PENDING, PAID"),
  fault('gw-pixin-orm-row-serialised', ['GW-PIXIN-RESP-ID', 'GW-PIXIN-FEES-INT'], 'the charge is serialised straight from its database row: id is the auto-increment integer (a JSON number), fees a NUMERIC column that the driver returns as a string ("99")'),
  fault('gw-pixin-qrcode-svg', ['GW-PIXIN-QRCODE-PNG'], "pix.qrCode is the QR library's SVG output, base64, not a PNG"),
  // the lookups and the simulation
  fault('gw-pixin-lookup-read-model', ['GW-PIXIN-GET-200', 'GW-PIXIN-GET-CURRENT-STATUS'], 'GET …/qrcode/{id} reads a read model written once at creation: it keeps showing pending after /pay, and its envelope has no message'),
  fault('gw-pixin-pay-unknown-crashes', ['GW-PIXIN-PAY-404'], '/pay reads the status of the charge it did not find: an unknown id crashes with 500 instead of 404'),
  fault('gw-txn-lookup-card-only', ['GW-TXN-LOOKUP-PIX'], 'GET /api/v1/transactions/{id} searches the card sales only: the id of a PIX charge answers 404'),
  {
    ...fault('gw-simulation-events-not-emitted', ['GW-SANDBOX-SIM-EVENTS', 'GW-EVT-TRANSACTION-PAID', 'GW-EVT-TRANSFER-COMPLETED'], '/pay and /complete set the new status directly, skipping the domain event the acquirer callback raises: transaction_paid and transfer_completed are never sent'),
    strict: 'no delivery timeout is stated: an event never seen is inconclusive (a warning), whatever the wait',
  },
  // the request: optional parts and the nested objects
  fault('gw-pixin-optional-fields-required', ['GW-PIXIN-CUSTOMER-OPTIONAL', 'GW-PIXIN-ITEMS-OPTIONAL', 'GW-PIXIN-TRACKING-OPTIONAL', 'GW-PIXIN-SPLITS-OPTIONAL'], 'the request DTO was generated from NOT NULL entity columns: customer.name, items, trackingParameters and splits are required'),
  fault('gw-pixin-nested-fields-refused', ['GW-PIXIN-ITEM-FIELDS', 'GW-TRACK-ACCEPTED', 'GW-ADDR-STRINGS', 'GW-PIXIN-SPLIT-EMAIL'], 'the nested DTOs (Item, TrackingParameters, BillingAddress, Split) lack their decorators under a whitelist validator: every field inside items[], trackingParameters, customer.billingAddress and splits[] is refused as "should not exist"'),
  fault('gw-pixin-postback-query-refused', ['GW-PIXIN-POSTBACK-URI'], 'postbackUrl is matched by a URL regex without a query part: a callback URI with ?… is refused'),
  fault('gw-pixin-lenient-request', ['GW-PIXIN-AMOUNT-INT', 'GW-PIXIN-CUSTOMER-OBJECT', 'GW-PIXIN-CUSTOMER-REQUIRED', 'GW-PIXIN-DOCTYPE-ENUM', 'GW-PIXIN-DOC-DIGITS'], 'the request parser coerces instead of validating: amountInCents "1000" and 100.5 become integers, a missing customer is allowed (payer data asked later), documentType is inferred from the document and non-digits are stripped from a CPF'),
];
