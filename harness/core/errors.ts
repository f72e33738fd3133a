/**
 * Errors of the suite itself. A {@link HarnessError} is never a finding: a broken harness (our own
 * timeout, a receiver that failed to bind, a bad configuration) must not read as non-conformance.
 */

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
