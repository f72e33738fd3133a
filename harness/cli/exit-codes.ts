/**
 * The exit codes of every subcommand: one table. README.md "Exit codes" prints it (a test keeps
 * the two equal), and `--help`, action.yml, the CI templates and docs/REPORTS.md refer to it.
 */
export const EXIT = {
  pass: 0,
  failed: 1,
  usage: 2,
  harness: 3,
  inconclusive: 4,
  partial: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES: readonly { code: ExitCode; meaning: string }[] = [
  { code: EXIT.pass, meaning: 'no check failed (warnings and not-run checks do not count unless --strict; accepted deviations never do)' },
  { code: EXIT.failed, meaning: 'a check failed (under --strict also: a warning, or a stale or expired baseline entry); replay: FIXED is 0, STILL FAILING is 1' },
  { code: EXIT.usage, meaning: 'bad configuration or usage: an unknown flag, a bad value, a config file that does not validate, a selection that matches no check' },
  { code: EXIT.harness, meaning: 'the suite itself broke (harness error), or no check ran: no conformance verdict' },
  { code: EXIT.inconclusive, meaning: 'inconclusive: nothing failed, but the target could not be tested from here (preflight, DNS, TLS, proxy, credentials, transport, time limit)' },
  { code: EXIT.partial, meaning: 'partial: a certify or strict run whose scope was not fully evaluated, or a merge of incomplete shards (`merge --allow-partial`)' },
];

/** The table as text, for --help (wrapped to `width` columns). */
export function exitCodeLines(indent = '  ', width = 100): string[] {
  const out: string[] = [];
  for (const e of EXIT_CODES) {
    let line = `${indent}${e.code}  `;
    const hanging = ' '.repeat(line.length);
    for (const word of e.meaning.split(' ')) {
      if (line.trim() !== String(e.code) && line.length + word.length + 1 > width) {
        out.push(line.trimEnd());
        line = hanging;
      }
      line += `${word} `;
    }
    out.push(line.trimEnd());
  }
  return out;
}

/** The table as Markdown (README.md "Exit codes"). */
export function exitCodeMarkdown(): string {
  return ['| code | meaning |', '|---|---|', ...EXIT_CODES.map((e) => `| ${e.code} | ${e.meaning} |`)].join('\n');
}
