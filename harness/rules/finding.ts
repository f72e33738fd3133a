/**
 * A finding is data: what a check saw that the contract does not allow (severity `failure`) or
 * where the contract is ambiguous or only advisory (severity `warning`). One formatter renders it.
 */
import type { Exchange } from '../http/exchange.js';

export type Severity = 'failure' | 'warning';

export interface Finding {
  /** stable code naming the rule broken, e.g. `status.unexpected`, `contract.schema`, `emv.crc` */
  code: string;
  title: string;
  severity: Severity;
  /** requirement IDs from specs/requirements.yaml */
  requirements: string[];
  expected: string;
  actual: string;
  /** the exchanges that show it; rendered as curl under "Reproduce with:" */
  exchanges: Exchange[];
  /** JSON pointer into the response body, when the finding is located */
  pointer?: string;
}

/** Something went wrong in the suite itself (not the target): never reported as non-conformance. */
export class HarnessError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'HarnessError';
  }
}
