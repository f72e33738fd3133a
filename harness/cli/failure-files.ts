/**
 * reports/failures/<check-id>.json: everything needed to run one failing check again, written by
 * the CLI after a run from what the run already produced (conformance.json): the tool version, the
 * flags that change what a check does, the seed and fast-check path, the findings and the
 * requests as curl lines (secrets already redacted, the token request first). `replay FILE` reads it
 * (harness/cli/replay.ts).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replayFlags, type CliOptions } from './args.js';
import type { ConformanceReport, ReportedCheck } from '../report/verdict.js';
import type { ReportedFinding } from '../report/finding.js';
import { shellQuote, withTokenRequests } from '../http/curl.js';
import { commandFor } from './invocation.js';

export const FAILURE_KIND = 'paygate-failure';

export interface FailureFile {
  kind: typeof FAILURE_KIND;
  tool: 'paygate-conformance';
  version: string;
  createdAt: string;
  check: { id: string; title?: string; api?: string; area?: string; severity?: string; file: string; requirements: string[] };
  /** the flags the check ran with that change what it does (target and secrets excepted) */
  flags: string[];
  seed: number | null;
  /** fast-check's path to the failing case (property checks) */
  path?: string;
  /** the run's targets (base URLs) and whether it was the embedded reference */
  targets: ConformanceReport['targets'];
  embedded: boolean;
  /** header names the run sent (--header): values are never written; give them again to replay */
  headers?: string[];
  findings: (Pick<ReportedFinding, 'code' | 'title' | 'requirements' | 'expected' | 'actual'> & { pointer?: string })[];
  /** the failing requests as curl commands (redacted; the gateway token request first) */
  requests: string[];
  /** the command that replays it */
  replay: string;
}

/** A check id as a file name (fixtures without meta are named `file > test`). */
export function failureFileName(checkId: string): string {
  return `${checkId.replace(/[^A-Za-z0-9._-]+/g, '_')}.json`;
}

export function failuresDir(reportsDir: string): string {
  return join(reportsDir, 'failures');
}

/** `--seed N` and `--replay PATH` out of a check's replay line (harness/report/format.ts writes it). */
export function seedAndPath(replay: string | undefined): { seed?: number; path?: string } {
  if (replay === undefined) return {};
  const seed = /--seed (-?\d+)/.exec(replay)?.[1];
  const quoted = /--replay (?:'((?:[^']|'\\'')*)'|(\S+))/.exec(replay);
  const path = quoted?.[1]?.replace(/'\\''/g, "'") ?? quoted?.[2];
  return { ...(seed !== undefined && { seed: Number(seed) }), ...(path !== undefined && { path }) };
}

function failingFindings(check: ReportedCheck, strict: boolean): ReportedFinding[] {
  // --strict: a check that failed on warnings alone
  return check.failures.length > 0 ? check.failures : strict ? check.warnings : [];
}

/** The replay command of a failure file, as the user can type it where they are. */
export function replayCommandFor(file: string): string {
  // `npx paygate-conformance replay FILE`, or in a clone `npm run conformance -- replay FILE`
  return `${commandFor('run')} replay ${shellQuote(file)}`;
}

/**
 * Writes one failure file per failing check; returns check id → file. Clears the directory first
 * (a run's failures are its own).
 */
export function writeFailureFiles(report: ConformanceReport, options: CliOptions, reportsDir: string, displayPath: (path: string) => string = (p) => p): Map<string, string> {
  const dir = failuresDir(reportsDir);
  rmSync(dir, { recursive: true, force: true });
  const written = new Map<string, string>();
  const failed = report.checks.filter((c) => c.state === 'failed');
  if (failed.length === 0) return written;
  mkdirSync(dir, { recursive: true });
  const flags = replayFlags(options);
  for (const check of failed) {
    const path = join(dir, failureFileName(check.check));
    const findings = failingFindings(check, report.strict);
    // the outcome carries them; older records only in the replay line
    const parsed = seedAndPath(check.replay);
    const seed = check.seed ?? parsed.seed;
    const fcPath = check.replayPath ?? parsed.path;
    const curls = [...new Set(findings.flatMap((f) => f.curl))];
    const file: FailureFile = {
      kind: FAILURE_KIND,
      tool: 'paygate-conformance',
      version: report.version,
      createdAt: new Date().toISOString(),
      check: {
        id: check.check,
        ...(check.title !== undefined && { title: check.title }),
        ...(check.api !== undefined && { api: check.api }),
        ...(check.area !== undefined && { area: check.area }),
        ...(check.severity !== undefined && { severity: check.severity }),
        file: check.file,
        requirements: check.requirements,
      },
      flags,
      seed: seed ?? report.seed,
      ...(fcPath !== undefined && { path: fcPath }),
      targets: report.targets,
      embedded: report.embedded,
      ...(options.network?.headers !== undefined && { headers: options.network.headers.map(([name]) => name) }),
      findings: findings.map((f) => ({ code: f.code, title: f.title, requirements: f.requirements, expected: f.expected, actual: f.actual, ...(f.pointer !== undefined && { pointer: f.pointer }) })),
      requests: withTokenRequests(curls),
      replay: replayCommandFor(displayPath(path)),
    };
    writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
    written.set(check.check, path);
  }
  return written;
}
