/**
 * `paygate-conformance verify DIR`: checks a certification bundle (harness/report/certificate.ts):
 * its MANIFEST.sha256, then the certificate against the files it certifies. Exit 0 when it holds;
 * 1 naming every altered, added or missing file and every inconsistency; 2 on bad usage.
 *
 *   tsx harness/report/verify.ts [DIR]   (default reports/certificate)
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { verifyBundle } from './certificate.js';
import { commandFor } from '../cli/invocation.js';

export function main(argv: readonly string[]): number {
  const args = argv.filter((a) => a !== '--');
  if (args.includes('--help') || args.includes('-h')) {
    console.log(
      `usage: ${commandFor('verify')} [DIR]\n` +
        'Checks a certification bundle (default reports/certificate): every file against MANIFEST.sha256, then certificate.json\n' +
        'against conformance.json and exchanges.har. Exit 0 when it holds, 1 naming each altered, added or missing file.\n' +
        'PAYGATE_VERIFY_COMMAND, when set, checks MANIFEST.sha256.sig too ({manifest} and {signature} are replaced by the paths).',
    );
    return 0;
  }
  const unknown = args.filter((a) => a.startsWith('-'));
  if (unknown.length > 0 || args.length > 1) {
    console.error(`verify: unexpected ${unknown[0] ?? args[1]} (usage: ${commandFor('verify')} [DIR])`);
    return 2;
  }
  const dir = resolve(args[0] ?? resolve(process.env['PAYGATE_REPORTS_DIR'] ?? 'reports', 'certificate'));
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

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exit(main(process.argv.slice(2)));
}
