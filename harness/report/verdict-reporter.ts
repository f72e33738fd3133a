/**
 * Vitest reporter (main process) that turns every check's outcome (written by the worker at the
 * end of the check, harness/report/outcome.ts) into reports/conformance.json and
 * reports/conformance.md. It reads the outcome as it is; only a test that is not a check (a
 * fixture, a file that did not load) is described from vitest's own result. With `--shard i/n` it writes only a fragment
 * (reports/verdict-fragments/shard-i.json); `tsx harness/report/merge.ts` merges fragments.
 *
 * Options and run information come from the environment the CLI sets (PAYGATE_PROFILE, PAYGATE_SEED,
 * PAYGATE_STRICT, PAYGATE_API) and from the target variables the global setup exports.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { SerializedError } from 'vitest';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import type { Requirement } from '../contract/requirements.js';
import type { CheckApi, CheckOutcome } from './outcome.js';
import { buildConformance, renderMarkdown, APIS } from './verdict.js';
import { isInconclusiveError } from '../http/network.js';
import type { CheckRecord, ConformanceReport, Profile, RunInfo } from './verdict.js';
import { adoptionFromEnv, completeReport } from './adoption.js';
import { renderJUnit } from './junit.js';
import { clearSpool, writeHar } from './har.js';

export interface VerdictReporterOptions {
  /** where conformance.{json,md} go (default `<root>/reports`, or PAYGATE_REPORTS_DIR) */
  outputDir?: string;
}

/** A shard's contribution, merged by harness/report/merge.ts. */
export interface VerdictFragment {
  kind: 'paygate-verdict-fragment';
  shard: { index: number; count: number };
  run: RunInfo;
  checks: CheckRecord[];
}

const PROFILES: readonly Profile[] = ['quick', 'full', 'certify'];

export function toolVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value);
}

/** Run information from the environment (what the CLI and the global setup export). */
export function runInfoFromEnv(env: NodeJS.ProcessEnv, startedAt: Date, durationMs: number, shard?: string): RunInfo {
  const profileText = env['PAYGATE_PROFILE'] ?? 'quick';
  const profile = (PROFILES as readonly string[]).includes(profileText) ? (profileText as Profile) : 'quick';
  const seedText = env['PAYGATE_SEED'];
  const seed = seedText !== undefined && /^-?\d+$/.test(seedText) ? Number(seedText) : null;
  const selected = env['PAYGATE_API'] ?? 'both';
  const targets: RunInfo['targets'] = {};
  const notTested: RunInfo['notTested'] = {};
  const urlVar: Record<CheckApi, string> = { gateway: 'GATEWAY_BASE_URL', partner: 'PARTNER_BASE_URL' };
  for (const api of APIS) {
    const url = env[urlVar[api]];
    if (url !== undefined && url !== '') targets[api] = url;
    if (selected !== 'both' && selected !== api) notTested[api] = `--api ${selected}`;
    else if (url === undefined || url === '') notTested[api] = `${urlVar[api]} not set`;
  }
  const receiverUrl = env['PAYGATE_RECEIVER_TARGET_URL'];
  const receiverScheme = env['PAYGATE_RECEIVER_SCHEME'];
  const receiver: RunInfo['receiver'] =
    env['PAYGATE_TARGET_KIND'] === 'receiver' && receiverUrl && (receiverScheme === 'gateway' || receiverScheme === 'partner') ? { url: receiverUrl, scheme: receiverScheme } : undefined;
  if (receiver !== undefined) for (const api of APIS) notTested[api] = 'receiver run (--receiver-url): the APIs are not tested';
  return {
    version: toolVersion(),
    profile,
    seed,
    startedAt: startedAt.toISOString(),
    durationMs,
    targets,
    strict: truthy(env['PAYGATE_STRICT']),
    embedded: truthy(env['PAYGATE_EMBEDDED']),
    notTested,
    ...(shard !== undefined && { shard }),
    ...(receiver !== undefined && { receiver }),
  };
}

/**
 * A test's outcome: the one its check wrote, as it is; for a test that is not a check, what vitest
 * saw (passed, skipped, failed; a HarnessError or a NotRunError by its name and code).
 */
export function outcomeOf(testCase: TestCase): CheckOutcome {
  const written = testCase.meta().paygateOutcome;
  if (written !== undefined) return written;
  const result = testCase.result();
  const name = testCase.fullName;
  const file = testCase.module.relativeModuleId;
  const base = { check: `${file} > ${name}`, name, title: testCase.name, file, requirements: [], failures: [], warnings: [], requests: 0, durationMs: Math.round(testCase.diagnostic()?.duration ?? 0) };
  // not selected (--grep, a test that is not a check): out of the run's scope
  if (result.state === 'skipped' || result.state === 'pending') return { ...base, state: 'not-run', outOfScope: true, notRun: (result.state === 'skipped' ? result.note : undefined) ?? 'skipped' };
  if (result.state === 'passed') return { ...base, state: 'passed' };
  const error = result.errors?.[0];
  const code: unknown = (error as { code?: unknown } | undefined)?.code;
  if (code === 'not-run') return { ...base, state: 'not-run', notRun: error?.message ?? 'not run' };
  const harness = error?.name === 'HarnessError';
  return { ...base, state: harness ? 'error' : 'failed', error: error?.message ?? (harness ? 'harness error' : 'the test failed') };
}

/** Loads the requirement catalogue; an unreadable catalogue leaves the verdict list to what checks name. */
export async function loadCatalogue(): Promise<{ catalogue: readonly Requirement[]; problem?: string }> {
  try {
    const { loadRequirements } = await import('../contract/requirements.js');
    return { catalogue: loadRequirements() };
  } catch (error) {
    return { catalogue: [], problem: error instanceof Error ? error.message : String(error) };
  }
}

export function writeConformance(dir: string, report: ConformanceReport): { json: string; md: string } {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, 'conformance.json');
  const md = join(dir, 'conformance.md');
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(md, renderMarkdown(report));
  return { json, md };
}

/** junit.xml from the checks' outcomes (harness/report/junit.ts). */
export function writeJUnit(path: string, checks: readonly CheckRecord[], run: RunInfo): void {
  const properties: Record<string, string> = { tool: 'paygate-conformance', version: run.version, profile: run.profile, seed: String(run.seed ?? 'n/a'), strict: String(run.strict) };
  for (const api of APIS) if (run.targets[api] !== undefined) properties[`target.${api}`] = run.targets[api];
  if (run.shard !== undefined) properties['shard'] = run.shard;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, renderJUnit(checks, { startedAt: run.startedAt, properties }));
}

export function fragmentPath(dir: string, index: number): string {
  return join(dir, 'verdict-fragments', `shard-${index}.json`);
}

export default class VerdictReporter implements Reporter {
  private outputDir: string;
  private startedAt = new Date();
  private shard: { index: number; count: number } | undefined;

  constructor(options: VerdictReporterOptions = {}) {
    this.outputDir = options.outputDir ?? process.env['PAYGATE_REPORTS_DIR'] ?? 'reports';
  }

  onInit(vitest: Vitest): void {
    this.outputDir = resolve(vitest.config.root, this.outputDir);
    const shard = vitest.config.shard;
    this.shard = shard !== undefined && shard !== null ? { index: shard.index, count: shard.count } : undefined;
    this.startedAt = new Date();
    const har = process.env['PAYGATE_HAR'];
    if (har !== undefined && har !== '') clearSpool(har);
  }

  onTestRunStart(): void {
    this.startedAt = new Date();
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): Promise<void> {
    const checks: CheckRecord[] = [];
    for (const module of testModules) {
      let any = false;
      for (const testCase of module.children.allTests()) {
        any = true;
        checks.push(outcomeOf(testCase));
      }
      const moduleErrors = module.errors();
      if (moduleErrors.length > 0 && !any) {
        // the file did not load or a suite hook broke before any test: a harness error, not a finding
        checks.push({
          check: module.relativeModuleId,
          name: module.relativeModuleId,
          file: module.relativeModuleId,
          requirements: [],
          state: 'error',
          failures: [],
          warnings: [],
          error: moduleErrors.map((e) => e.message).join('; '),
          requests: 0,
          durationMs: 0,
        });
      }
    }
    // a rejection a check left unawaited after the network or the token failed it is that check's
    // inconclusive cause, already reported with it: never a pseudo-check of its own
    unhandledErrors.filter((error) => !isInconclusiveError(error as { code?: unknown })).forEach((error, index) => {
      checks.push({
        check: `unhandled error #${index + 1}`,
        name: `unhandled error #${index + 1}`,
        file: '',
        requirements: [],
        state: 'error',
        failures: [],
        warnings: [],
        error: `${error.name ?? 'Error'}: ${error.message}`,
        requests: 0,
        durationMs: 0,
      });
    });

    const durationMs = Date.now() - this.startedAt.getTime();
    const shardText = this.shard !== undefined ? `${this.shard.index}/${this.shard.count}` : undefined;
    const run = runInfoFromEnv(process.env, this.startedAt, durationMs, shardText);
    writeJUnit(process.env['PAYGATE_JUNIT_FILE'] ?? join(this.outputDir, 'junit.xml'), checks, run);
    const har = process.env['PAYGATE_HAR'];
    if (har !== undefined && har !== '') writeHar(har, checks.map((c) => c.check), run.version);
    if (this.shard !== undefined) {
      const fragment: VerdictFragment = { kind: 'paygate-verdict-fragment', shard: this.shard, run, checks };
      const path = fragmentPath(this.outputDir, this.shard.index);
      mkdirSync(join(this.outputDir, 'verdict-fragments'), { recursive: true });
      writeFileSync(path, `${JSON.stringify(fragment, null, 2)}\n`);
      return;
    }
    const { catalogue, problem } = await loadCatalogue();
    if (problem !== undefined) console.warn(`[paygate] requirement catalogue unavailable, verdicts cover named IDs only: ${problem}`);
    writeConformance(this.outputDir, completeReport(buildConformance(run, checks, catalogue), adoptionFromEnv()));
  }
}
