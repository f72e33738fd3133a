/**
 * The flags about the evidence a run keeps: `--har` (the HTTP Archive of every exchange,
 * harness/report/har.ts) and `--confirm-failures N` (a failing case run N times more in the same
 * run, labelled confirmed or flaky). Parsed apart from harness/cli/args.ts, as the adoption flags
 * are: main.ts takes them out of argv first.
 */
import { UsageError } from './args.js';

export interface EvidenceOptions {
  har?: boolean;
  confirmFailures?: number;
}

export const EVIDENCE_FLAGS: readonly { flag: string; value?: string; help: string }[] = [
  { flag: '--har', help: 'write reports/exchanges.har: every HTTP exchange of the run (HAR 1.2, secrets redacted), one entry per request' },
  { flag: '--confirm-failures', value: 'N', help: 'run each failing check N times more in the same run (the same seed and case); it is labelled confirmed (failed every time) or flaky (k/N)' },
];

/** Takes the evidence flags out of argv; returns the rest untouched. */
export function extractEvidenceArgs(argv: readonly string[]): { rest: string[]; options: EvidenceOptions } {
  const rest: string[] = [];
  const options: EvidenceOptions = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (name === '--har') {
      if (eq !== -1) throw new UsageError('--har takes no value');
      if (options.har === true) throw new UsageError('--har given twice');
      options.har = true;
    } else if (name === '--confirm-failures') {
      let value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined || value.startsWith('--')) throw new UsageError('--confirm-failures needs a value');
      value = value.trim();
      if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 20) throw new UsageError(`--confirm-failures expects an integer between 1 and 20, got "${value}"`);
      if (options.confirmFailures !== undefined) throw new UsageError('--confirm-failures given twice');
      options.confirmFailures = Number(value);
    } else rest.push(arg);
  }
  return { rest, options };
}

/** PAYGATE_* variables for the workers and the verdict reporter. */
export function evidenceEnv(options: EvidenceOptions, harPath: string): Record<string, string> {
  return {
    ...(options.har === true && { PAYGATE_HAR: harPath }),
    ...(options.confirmFailures !== undefined && { PAYGATE_CONFIRM_FAILURES: String(options.confirmFailures) }),
  };
}

export function evidenceHelpLines(): string[] {
  return EVIDENCE_FLAGS.map((f) => `  ${`${f.flag}${f.value !== undefined ? ` ${f.value}` : ''}`.padEnd(30)} ${f.help}`);
}
