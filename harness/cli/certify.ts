/**
 * `paygate-conformance certify --implementation-name N --implementation-version V [run flags]`:
 * a run in the certify profile that keeps every exchange (--har), then the certification bundle in
 * <reports>/certificate/ (harness/report/certificate.ts): certificate.json/.md, the HAR,
 * conformance.json/.md, junit.xml, the single-file report and MANIFEST.sha256. The exit code is the
 * run's (0 PASS, 1 FAIL, 4 INCONCLUSIVE, 5 PARTIAL, …); 3 when the bundle cannot be written.
 *
 * The run's flags are those of `run` (harness/cli/run.ts); a sharded run cannot certify (the
 * bundle is one run's evidence), nor can one without Allure results (the bundle holds the report).
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { runCommand } from './run.js';
import { commandFor } from './invocation.js';
import { buildHtmlReport } from '../report/build-html.js';
import { writeBundle } from '../report/certificate.js';

export interface Implementation {
  name: string;
  version: string;
}

/** Takes `--implementation-name`/`--implementation-version` out of argv. */
export function extractImplementation(argv: readonly string[]): { rest: string[]; implementation: Partial<Implementation>; problems: string[] } {
  const rest: string[] = [];
  const implementation: Partial<Implementation> = {};
  const problems: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const key = name === '--implementation-name' ? 'name' : name === '--implementation-version' ? 'version' : undefined;
    if (key === undefined) {
      rest.push(arg);
      continue;
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || value.trim() === '' || value.startsWith('--')) problems.push(`${name} needs a value`);
    else implementation[key] = value.trim();
  }
  return { rest, implementation, problems };
}

function usage(): string {
  return [
    `usage: ${commandFor('certify')} --implementation-name NAME --implementation-version VERSION [run flags]`,
    'Runs the certify profile keeping every exchange, then writes <reports>/certificate/: certificate.json and .md (the',
    'implementation, tool version, profile, scope, seed, target host, date, SHA-256 of the contract documents, of specs/ and',
    'of the catalogue, every in-scope requirement\'s verdict with its evaluations and evidence), exchanges.har,',
    'conformance.json/.md, junit.xml, report.html (the single-file report) and MANIFEST.sha256.',
    `Check a bundle with \`${commandFor('verify', { bare: true })} DIR\`. PAYGATE_SIGN_COMMAND signs the manifest (see README).`,
    'Exit code: the run\'s (0 PASS, 1 FAIL, 4 INCONCLUSIVE, 5 PARTIAL); 2 bad usage; 3 the bundle could not be written.',
  ].join('\n');
}

export async function certify(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage());
    return 0;
  }
  const { rest, implementation, problems } = extractImplementation(argv);
  if (implementation.name === undefined) problems.push('--implementation-name is required');
  if (implementation.version === undefined) problems.push('--implementation-version is required');
  const profile = rest.findIndex((a) => a === '--profile' || a.startsWith('--profile='));
  const given = profile === -1 ? undefined : rest[profile]?.includes('=') ? rest[profile]?.split('=')[1] : rest[profile + 1];
  if (given !== undefined && given !== 'certify') problems.push(`certify runs the certify profile (got --profile ${given})`);
  if (rest.some((a) => a === '--shard' || a.startsWith('--shard='))) problems.push('a sharded run cannot certify: the bundle is one run\'s evidence');
  if (rest.includes('--no-allure')) problems.push('--no-allure: the bundle holds the single-file report, which needs the Allure results');
  if (problems.length > 0 || implementation.name === undefined || implementation.version === undefined) {
    console.error(`paygate-conformance certify: ${problems.join('; ')}\n${usage()}`);
    return 2;
  }
  const result = await runCommand([...rest, ...(given === undefined ? ['--profile', 'certify'] : []), ...(rest.includes('--har') ? [] : ['--har'])], env);
  const code = result.code;
  if (code === 2) return code;
  const reportsDir = result.reportsDir ?? resolve(env['PAYGATE_REPORTS_DIR'] ?? 'reports');
  if (!existsSync(join(reportsDir, 'conformance.json')) || !existsSync(join(reportsDir, 'exchanges.har'))) {
    console.error('\ncertify: the run left no verdict or no exchanges (it stopped before any check): no certificate written.');
    return code;
  }
  try {
    const html = buildHtmlReport({ resultsDir: join(reportsDir, 'allure-results'), outputDir: join(reportsDir, 'allure-report'), reportsDir });
    const dir = join(reportsDir, 'certificate');
    const cert = writeBundle(dir, { reportsDir, reportHtml: html.index }, { name: implementation.name, version: implementation.version }, env);
    const shown = relative(process.cwd(), dir) || dir;
    console.log(`\ncertificate: ${shown}/ — ${implementation.name} ${implementation.version}: ${cert.verdict.toUpperCase()} (${cert.requirements.length} requirement(s) in scope)`);
    console.log(`verify it with: ${commandFor('verify', { bare: true })} ${shown}`);
  } catch (error) {
    console.error(`\ncertify: the bundle could not be written: ${error instanceof Error ? error.message : String(error)}`);
    return 3;
  }
  return code;
}
