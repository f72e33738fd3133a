/**
 * The receiver rules of each scheme, by duty: the receiver suite (suites/receiver/) runs the same
 * checks under either scheme and hands each observation to the scheme's rule, whose sentence and
 * firmness are its own document's.
 */
import type { Rule } from '../rule.js';
import type { DeliveryObservation, ReceiverScheme } from './observation.js';
import { acknowledgeGatewayEvents, acknowledgePartnerEvents, answerGatewayEventsQuickly, answerPartnerEventsQuickly } from './acknowledgement.js';
import { acceptGatewayExtraFields, acceptGatewayLargeBodies, acceptPartnerExtraFields, acceptPartnerLargeBodies } from './payloads.js';
import type { LargeDelivery } from './payloads.js';
import {
  acceptHexDigestsOfEitherCase,
  acceptLowercaseHexDigests,
  refuseForgedGatewayEvents,
  refuseForgedPartnerEvents,
  refuseUnsignedGatewayEvents,
  requireSignedPartnerEvents,
  verifyGatewaySignaturesOverTheBody,
  verifyPartnerSignaturesOverRawBody,
} from './signatures.js';
import type { DigestEncodingObservation, SignatureInputObservation } from './signatures.js';
import { creditPartnerPaidEvents, creditPartnerPaymentsOnce, processGatewayEventsOnce, processGatewayPaidEvents } from './processing.js';
import type { PaidProcessedObservation, ProcessedObservation } from './processing.js';

export interface ReceiverDuties {
  /** a valid, correctly signed event is answered 2xx */
  acknowledge: Rule<DeliveryObservation>;
  /** … quickly */
  answerQuickly: Rule<DeliveryObservation>;
  /** an event with unknown extra fields is accepted */
  acceptExtraFields: Rule<DeliveryObservation>;
  /** a large event is accepted */
  acceptLargeBodies: Rule<LargeDelivery>;
  /** an event whose signature does not verify is refused */
  refuseForged: Rule<DeliveryObservation>;
  /** an event without the signature header */
  unsigned: Rule<DeliveryObservation>;
  /** what the signature covers */
  signatureInput: Rule<SignatureInputObservation>;
  /** the digest's encoding */
  digestEncoding: Rule<DigestEncodingObservation>;
  /** duplicates are processed once */
  processedOnce: Rule<ProcessedObservation>;
  /** the paid event is processed */
  paidProcessed: Rule<PaidProcessedObservation>;
}

export const RECEIVER_DUTIES: Record<ReceiverScheme, ReceiverDuties> = {
  gateway: {
    acknowledge: acknowledgeGatewayEvents,
    answerQuickly: answerGatewayEventsQuickly,
    acceptExtraFields: acceptGatewayExtraFields,
    acceptLargeBodies: acceptGatewayLargeBodies,
    refuseForged: refuseForgedGatewayEvents,
    unsigned: refuseUnsignedGatewayEvents,
    signatureInput: verifyGatewaySignaturesOverTheBody,
    digestEncoding: acceptLowercaseHexDigests,
    processedOnce: processGatewayEventsOnce,
    paidProcessed: processGatewayPaidEvents,
  },
  partner: {
    acknowledge: acknowledgePartnerEvents,
    answerQuickly: answerPartnerEventsQuickly,
    acceptExtraFields: acceptPartnerExtraFields,
    acceptLargeBodies: acceptPartnerLargeBodies,
    refuseForged: refuseForgedPartnerEvents,
    unsigned: requireSignedPartnerEvents,
    signatureInput: verifyPartnerSignaturesOverRawBody,
    digestEncoding: acceptHexDigestsOfEitherCase,
    processedOnce: creditPartnerPaymentsOnce,
    paidProcessed: creditPartnerPaidEvents,
  },
};
