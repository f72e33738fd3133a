/**
 * `paygate-conformance verify DIR`: checks a certification bundle (harness/report/certificate.ts):
 * its MANIFEST.sha256, then the certificate against the files it certifies. Exit 0 when it holds;
 * 1 naming every altered, added or missing file and every inconsistency; 2 on bad usage.
 *
 *   paygate-conformance verify [DIR]   (default reports/certificate)
 */
import { resolve } from 'node:path';
import { verifyBundle } from './certificate.js';
import { commandFor } from '../cli/invocation.js';

/** `paygate-conformance verify [DIR]` (flags parsed by harness/cli/program.ts). */
export function verifyCommand(positionals: readonly string[]): number {
  if (positionals.length > 1) {
    console.error(`verify: unexpected ${positionals[1]} (usage: ${commandFor('verify')} [DIR])`);
    return 2;
  }
  const dir = resolve(positionals[0] ?? resolve(process.env['PAYGATE_REPORTS_DIR'] ?? 'reports', 'certificate'));
  const result = verifyBundle(dir);
  for (const line of result.checked) console.log(`checked: ${line}`);
  if (result.ok) {
    console.log(`verify: ${dir}: OK, the bundle is as it was certified`);
    return 0;
  }
  for (const problem of result.problems) console.error(`verify: ${problem}`);
  console.error(`verify: ${dir}: FAILED (${result.problems.length} problem(s))`);
  return 1;
}
