/**
 * The certification bundle (`certify`, reports/certificate/): what an auditor needs to check a
 * certificate without trusting whoever hands it over.
 *
 *   certificate.json, certificate.md  the implementation (name, version), the tool and its version,
 *                                     profile, scope, seed, target host(s), date; SHA-256 of the
 *                                     contract documents the catalogue quotes, of specs/ and of the
 *                                     catalogue; every in-scope requirement's verdict with its
 *                                     evaluation count and references to its evidence (the checks
 *                                     that decided it, their JUnit test cases and HAR entries)
 *   exchanges.har                     every HTTP exchange of the run (HAR 1.2, secrets redacted)
 *   conformance.json, conformance.md  the run's verdict
 *   junit.xml                         one test case per check
 *   report.html                       the single-file Allure report (opens from file://, offline)
 *   MANIFEST.sha256                   `sha256sum` lines of every file above
 *
 * `verify DIR` ({@link verifyBundle}) recomputes the manifest and checks the certificate against
 * the files it certifies (hashes, verdicts, evidence counts), naming every file that was altered,
 * added or removed. Signing is a hook, not key management: with PAYGATE_SIGN_COMMAND set, `certify`
 * runs it once the manifest is written (`{manifest}` and `{signature}` are replaced by the paths,
 * e.g. `gpg --batch --detach-sign --armor --output {signature} {manifest}`), and `verify` runs
 * PAYGATE_VERIFY_COMMAND the same way when a signature is there.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckApi, CheckState } from './outcome.js';
import type { ConformanceReport, Counts, RunVerdict, Scope, Verdict } from './verdict.js';
import { APIS } from './verdict.js';
import type { Har } from './har.js';
import { mdCell } from './format.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const MANIFEST = 'MANIFEST.sha256';
export const SIGNATURE = 'MANIFEST.sha256.sig';
/** The bundle's files besides the certificate and the manifest. */
export const BUNDLE_FILES = { conformanceJson: 'conformance.json', conformanceMd: 'conformance.md', junit: 'junit.xml', har: 'exchanges.har', report: 'report.html' } as const;
/** The contract documents the catalogue quotes, as the project carries them. */
export const CONTRACT_DOCUMENTS = ['specs/contract/gateway-api.md', 'specs/contract/partner-cashin-api.md'] as const;

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export function sha256File(path: string): string {
  return sha256(readFileSync(path));
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

/** One digest for a directory: SHA-256 of its `sha256sum` lines (relative paths, sorted). */
export function treeDigest(dir: string): string {
  return sha256(filesUnder(dir).map((path) => `${sha256File(path)}  ${relative(dir, path).split('\\').join('/')}\n`).join(''));
}

export interface ContractHashes {
  /** each contract document, by its path in the project */
  contract: Record<string, string>;
  /** specs/ as a whole ({@link treeDigest}) */
  specs: string;
  /** specs/requirements.yaml */
  catalogue: string;
}

/** What the run was judged against, as hashes of the tool's own copies. */
export function contractHashes(root: string = ROOT): ContractHashes {
  return {
    contract: Object.fromEntries(CONTRACT_DOCUMENTS.map((path) => [path, sha256File(join(root, path))])),
    specs: treeDigest(join(root, 'specs')),
    catalogue: sha256File(join(root, 'specs', 'requirements.yaml')),
  };
}

export interface EvidenceRef {
  check: string;
  state: CheckState;
  /** evaluations of the requirement in this check */
  evaluations: number;
  /** the check's JUnit test case: `<classname> › <name>` */
  junit: string;
  /** its exchanges in exchanges.har: the first entry's index and how many */
  har?: { first: number; count: number };
}

export interface CertifiedRequirement {
  id: string;
  api?: CheckApi;
  verdict: Verdict;
  evaluations: number;
  reason?: string;
  evidence: EvidenceRef[];
}

export interface Certificate {
  kind: 'paygate-conformance-certificate';
  formatVersion: 1;
  implementation: { name: string; version: string };
  tool: { name: 'paygate-conformance'; version: string };
  verdict: RunVerdict;
  profile: string;
  strict: boolean;
  seed: number | null;
  /** when the run started (ISO-8601) and when the certificate was issued */
  date: string;
  issuedAt: string;
  target: { embedded: boolean; hosts: Partial<Record<CheckApi, string>>; urls: Partial<Record<CheckApi, string>>; receiver?: string };
  scope: Scope;
  summary: Counts;
  hashes: ContractHashes;
  /** SHA-256 of the bundle's other files (the certificate's own view; MANIFEST.sha256 covers every file) */
  files: Record<string, string>;
  requirements: CertifiedRequirement[];
  /** deviations the run's baseline accepted (`--baseline`): they did not fail it, and an auditor must see them */
  accepted: { check: string; code: string; requirements: string[]; title: string; reason: string; expires?: string }[];
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** Where each check's exchanges are in the archive. */
function harRanges(har: Har | undefined): Map<string, { first: number; count: number }> {
  const out = new Map<string, { first: number; count: number }>();
  har?.log.entries.forEach((entry, index) => {
    const range = out.get(entry._check);
    if (range === undefined) out.set(entry._check, { first: index, count: 1 });
    else range.count += 1;
  });
  return out;
}

export interface CertificateInput {
  report: ConformanceReport;
  implementation: { name: string; version: string };
  har?: Har;
  /** SHA-256 of the bundle's other files */
  files: Record<string, string>;
  hashes?: ContractHashes;
  issuedAt?: Date;
}

/** The certificate of a run: its in-scope requirements with their verdicts and evidence. */
export function buildCertificate(input: CertificateInput): Certificate {
  const { report } = input;
  const ranges = harRanges(input.har);
  const checks = new Map(report.checks.map((c) => [c.check, c]));
  const hosts: Partial<Record<CheckApi, string>> = {};
  for (const api of APIS) if (report.targets[api] !== undefined) hosts[api] = hostOf(report.targets[api]);
  const missing = new Set(report.scope.missingRequirements.map((r) => r.id));
  const inScope = report.requirements.filter((r) => r.kind !== 'unobservable' && (r.verdict === 'pass' || r.verdict === 'warn' || r.verdict === 'fail' || missing.has(r.id)));
  return {
    kind: 'paygate-conformance-certificate',
    formatVersion: 1,
    implementation: { ...input.implementation },
    tool: { name: 'paygate-conformance', version: report.version },
    verdict: report.verdict,
    profile: report.profile,
    strict: report.strict,
    seed: report.seed,
    date: report.startedAt,
    issuedAt: (input.issuedAt ?? new Date()).toISOString(),
    target: { embedded: report.embedded, hosts, urls: { ...report.targets }, ...(report.receiver !== undefined && { receiver: report.receiver.url }) },
    scope: report.scope,
    summary: report.summary,
    hashes: input.hashes ?? contractHashes(),
    files: { ...input.files },
    accepted: (report.accepted ?? []).map((a) => ({ check: a.check, code: a.code, requirements: a.requirements, title: a.title, reason: a.reason, ...(a.expires !== undefined && { expires: a.expires }) })),
    requirements: inScope.map((r) => ({
      id: r.id,
      ...(r.api !== undefined && { api: r.api }),
      verdict: r.verdict,
      evaluations: r.evaluations,
      ...(r.reason !== undefined && { reason: r.reason }),
      evidence: r.checks
        .map((id) => checks.get(id))
        .filter((c) => c !== undefined && (c.evaluations?.[r.id]?.evaluations ?? 0) > 0)
        .map((c) => {
          const range = ranges.get(c!.check);
          return { check: c!.check, state: c!.state, evaluations: c!.evaluations?.[r.id]?.evaluations ?? 0, junit: `${c!.file} › ${c!.title ?? c!.name}`, ...(range !== undefined && { har: range }) };
        }),
    })),
  };
}

/** certificate.md: the same, for people. */
export function renderCertificate(cert: Certificate): string {
  const out = [
    `# Certificate of conformance — ${mdCell(cert.implementation.name)} ${mdCell(cert.implementation.version)}`,
    '',
    `## Verdict: **${cert.verdict.toUpperCase()}**`,
    '',
    cert.verdict === 'pass'
      ? 'Every requirement in scope was evaluated against the implementation below and no check failed.'
      : cert.verdict === 'partial'
        ? 'No check failed, but part of the scope was left undecided (below): this is not a certificate of conformance.'
        : cert.verdict === 'inconclusive'
          ? 'Checks could not be judged from where the run was made (network, credentials, time): no verdict.'
          : 'The implementation does not conform: checks failed (see conformance.md).',
    '',
    '| | |',
    '|---|---|',
    `| Implementation | ${mdCell(cert.implementation.name)} ${mdCell(cert.implementation.version)} |`,
    `| Tool | ${cert.tool.name} ${cert.tool.version} |`,
    `| Profile | ${cert.profile}${cert.strict ? ' (strict)' : ''} |`,
    `| Seed | ${cert.seed ?? 'n/a'} |`,
    `| Date of the run | ${cert.date} |`,
    `| Issued | ${cert.issuedAt} |`,
    ...APIS.filter((api) => cert.target.hosts[api] !== undefined).map((api) => `| Target (${api}) | \`${mdCell(cert.target.hosts[api])}\`${cert.target.embedded ? ' (embedded reference)' : ''} |`),
    ...(cert.target.receiver !== undefined ? [`| Target (receiver) | \`${mdCell(cert.target.receiver)}\` |`] : []),
    `| Scope | ${cert.scope.apis.join(', ') || 'none'}: ${cert.scope.requirements} requirement(s), ${cert.scope.checks} check(s); ${cert.scope.complete ? 'complete' : `${cert.scope.missingRequirements.length} requirement(s) and ${cert.scope.missingChecks.length} check(s) undecided`} |`,
    `| Checks | ${cert.summary.passed} passed, ${cert.summary.warnings} warned, ${cert.summary.failed} failed, ${cert.summary.notRun} not run, ${cert.summary.inconclusive} inconclusive, ${cert.summary.errors} harness errors; ${cert.summary.requests} requests |`,
    '',
    '## Judged against',
    '',
    '| document | SHA-256 |',
    '|---|---|',
    ...Object.entries(cert.hashes.contract).map(([path, hash]) => `| \`${path}\` | \`${hash}\` |`),
    `| \`specs/requirements.yaml\` (the catalogue) | \`${cert.hashes.catalogue}\` |`,
    `| \`specs/\` (every file: sha256sum lines, sorted) | \`${cert.hashes.specs}\` |`,
    '',
    '## Out of scope',
    '',
    ...cert.scope.outOfScope.map((o) => `- ${mdCell(o)}`),
    '',
  ];
  if (!cert.scope.complete) {
    out.push('## Undecided in scope', '');
    for (const c of cert.scope.missingChecks) out.push(`- check ${mdCell(c.check)} (${c.state}): ${mdCell(c.reason)}`);
    for (const r of cert.scope.missingRequirements) out.push(`- ${r.id} (${r.verdict}): ${mdCell(r.reason)}`);
    out.push('');
  }
  if (cert.accepted.length > 0) {
    out.push(`## Accepted deviations (${cert.accepted.length})`, '', 'The run\'s baseline accepted these findings: they did not fail it.', '');
    for (const a of cert.accepted) out.push(`- ${mdCell(a.check)} \`${a.code}\` (${a.requirements.join(', ')}): ${mdCell(a.title)} — ${mdCell(a.reason)}${a.expires !== undefined ? ` (expires ${a.expires})` : ''}`);
    out.push('');
  }
  out.push(`## Requirements in scope (${cert.requirements.length})`, '', 'Evidence: the checks that decided each requirement, their test case in junit.xml and their entries in exchanges.har.', '');
  out.push('| requirement | verdict | evaluations | evidence |', '|---|---|---:|---|');
  for (const r of cert.requirements) {
    const evidence = r.evidence.map((e) => `${mdCell(e.check)} (${e.evaluations}${e.har !== undefined ? `; HAR ${e.har.first}–${e.har.first + e.har.count - 1}` : ''})`).join(', ');
    out.push(`| \`${r.id}\` | ${r.verdict} | ${r.evaluations} | ${evidence || mdCell(r.reason ?? '')} |`);
  }
  out.push('', '## Bundle', '', '| file | SHA-256 |', '|---|---|', ...Object.entries(cert.files).map(([name, hash]) => `| ${name} | \`${hash}\` |`), '');
  out.push(`Verify with \`paygate-conformance verify <this directory>\`: it checks ${MANIFEST} and this certificate against the files.`, '');
  return out.join('\n');
}

/** `sha256sum` lines for the files of `dir` (but the manifest and its signature). */
export function manifestText(dir: string): string {
  return filesUnder(dir)
    .map((path) => relative(dir, path).split('\\').join('/'))
    .filter((name) => name !== MANIFEST && name !== SIGNATURE)
    .map((name) => `${sha256File(join(dir, name))}  ${name}\n`)
    .join('');
}

function runHook(command: string, dir: string): void {
  const manifest = join(dir, MANIFEST);
  const signature = join(dir, SIGNATURE);
  const line = command.replaceAll('{manifest}', manifest).replaceAll('{signature}', signature);
  execFileSync('/bin/sh', ['-c', line], { stdio: 'inherit' });
}

export interface BundleSources {
  /** the run's reports directory (conformance.json/md, junit.xml, exchanges.har) */
  reportsDir: string;
  /** the single-file report (allure-report/index.html) */
  reportHtml?: string;
}

/**
 * Writes the bundle into `dir` (emptied first) from a finished run; returns the certificate. With
 * PAYGATE_SIGN_COMMAND set, signs the manifest through it.
 */
export function writeBundle(dir: string, sources: BundleSources, implementation: { name: string; version: string }, env: NodeJS.ProcessEnv = process.env): Certificate {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const copies: [string, string | undefined][] = [
    [BUNDLE_FILES.conformanceJson, join(sources.reportsDir, 'conformance.json')],
    [BUNDLE_FILES.conformanceMd, join(sources.reportsDir, 'conformance.md')],
    [BUNDLE_FILES.junit, env['PAYGATE_JUNIT_FILE'] ?? join(sources.reportsDir, 'junit.xml')],
    [BUNDLE_FILES.har, join(sources.reportsDir, 'exchanges.har')],
    [BUNDLE_FILES.report, sources.reportHtml],
  ];
  const files: Record<string, string> = {};
  for (const [name, from] of copies) {
    if (from === undefined || !existsSync(from)) throw new Error(`certify: ${name} is missing (${from ?? 'no single-file report'}): the bundle needs every file`);
    copyFileSync(from, join(dir, name));
    files[name] = sha256File(join(dir, name));
  }
  const report = JSON.parse(readFileSync(join(dir, BUNDLE_FILES.conformanceJson), 'utf8')) as ConformanceReport;
  const har = JSON.parse(readFileSync(join(dir, BUNDLE_FILES.har), 'utf8')) as Har;
  const cert = buildCertificate({ report, implementation, har, files });
  writeFileSync(join(dir, 'certificate.json'), `${JSON.stringify(cert, null, 2)}\n`);
  writeFileSync(join(dir, 'certificate.md'), renderCertificate(cert));
  writeFileSync(join(dir, MANIFEST), manifestText(dir));
  const sign = env['PAYGATE_SIGN_COMMAND'];
  if (sign !== undefined && sign.trim() !== '') runHook(sign, dir);
  return cert;
}

export interface Verification {
  ok: boolean;
  /** one line per problem, each naming the file */
  problems: string[];
  /** what was checked */
  checked: string[];
}

function parseManifest(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (m !== null) out.set(m[2] ?? '', m[1] ?? '');
  }
  return out;
}

/** Checks a bundle: its manifest, then the certificate against the files it certifies. */
export function verifyBundle(dir: string, env: NodeJS.ProcessEnv = process.env, root: string = ROOT): Verification {
  const problems: string[] = [];
  const checked: string[] = [];
  const manifestPath = join(dir, MANIFEST);
  if (!existsSync(manifestPath)) return { ok: false, problems: [`${MANIFEST}: missing (not a certification bundle?)`], checked };
  const listed = parseManifest(readFileSync(manifestPath, 'utf8'));
  const present = existsSync(dir) ? filesUnder(dir).map((p) => relative(dir, p).split('\\').join('/')).filter((n) => n !== MANIFEST && n !== SIGNATURE) : [];
  for (const [name, hash] of listed) {
    const path = join(dir, name);
    if (!existsSync(path)) problems.push(`${name}: missing (listed in ${MANIFEST})`);
    else if (sha256File(path) !== hash) problems.push(`${name}: altered (its SHA-256 is not the one in ${MANIFEST})`);
  }
  for (const name of present) if (!listed.has(name)) problems.push(`${name}: not in ${MANIFEST} (added after the bundle was written)`);
  checked.push(`${MANIFEST}: ${listed.size} file(s)`);
  const certPath = join(dir, 'certificate.json');
  let cert: Certificate | undefined;
  try {
    cert = JSON.parse(readFileSync(certPath, 'utf8')) as Certificate;
  } catch {
    problems.push('certificate.json: missing or not JSON');
  }
  if (cert !== undefined) {
    for (const [name, hash] of Object.entries(cert.files)) {
      const path = join(dir, name);
      if (existsSync(path) && sha256File(path) !== hash) problems.push(`${name}: does not match certificate.json (files.${name})`);
    }
    try {
      const report = JSON.parse(readFileSync(join(dir, BUNDLE_FILES.conformanceJson), 'utf8')) as ConformanceReport;
      if (report.verdict !== cert.verdict) problems.push(`certificate.json: verdict ${cert.verdict}, but conformance.json says ${report.verdict}`);
      const verdicts = new Map(report.requirements.map((r) => [r.id, r]));
      for (const r of cert.requirements) {
        const v = verdicts.get(r.id);
        if (v === undefined || v.verdict !== r.verdict || v.evaluations !== r.evaluations) problems.push(`certificate.json: ${r.id} is ${r.verdict} (${r.evaluations}) but conformance.json says ${v === undefined ? 'nothing' : `${v.verdict} (${v.evaluations})`}`);
      }
      const har = JSON.parse(readFileSync(join(dir, BUNDLE_FILES.har), 'utf8')) as Har;
      const requests = report.checks.reduce((n, c) => n + c.requests, 0);
      if (har.log.entries.length !== requests) problems.push(`exchanges.har: ${har.log.entries.length} entries for ${requests} recorded request(s) in conformance.json`);
      checked.push(`certificate.json against conformance.json (${cert.requirements.length} requirement(s)) and exchanges.har (${har.log.entries.length} entries)`);
    } catch (error) {
      problems.push(`conformance.json or exchanges.har: unreadable (${error instanceof Error ? error.message : String(error)})`);
    }
    // the verifier's own copies of the contract: comparable when it is the same tool version
    const own = contractHashes(root);
    const tool = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
    if (cert.tool.version === tool.version) {
      for (const [path, hash] of Object.entries(cert.hashes.contract)) if (own.contract[path] !== undefined && own.contract[path] !== hash) problems.push(`certificate.json: ${path} hashes differ from this tool's copy (the contract it was judged against is not this one)`);
      if (own.catalogue !== cert.hashes.catalogue) problems.push('certificate.json: the catalogue hash differs from this tool\'s specs/requirements.yaml');
      checked.push('contract and catalogue hashes against this tool\'s copies');
    } else {
      checked.push(`contract hashes not compared: certified with ${cert.tool.version}, verified with another version`);
    }
  }
  const verify = env['PAYGATE_VERIFY_COMMAND'];
  if (existsSync(join(dir, SIGNATURE))) {
    if (verify === undefined || verify.trim() === '') checked.push(`${SIGNATURE}: present, not checked (set PAYGATE_VERIFY_COMMAND)`);
    else {
      try {
        runHook(verify, dir);
        checked.push(`${SIGNATURE}: PAYGATE_VERIFY_COMMAND accepted it`);
      } catch {
        problems.push(`${SIGNATURE}: PAYGATE_VERIFY_COMMAND rejected the signature`);
      }
    }
  }
  return { ok: problems.length === 0, problems, checked };
}
