/**
 * `npm run report` / `paygate-conformance report`: reports/allure-results → reports/allure-report/index.html,
 * ONE self-contained file (Allure 3's single-file mode) that opens from file:// with no network.
 *
 * 1. Writes environment.properties (target, profile, seed, tool version, outcome, from
 *    reports/conformance.json when present) and categories.json into the results directory.
 * 2. Runs Allure 3 (`allure generate`, the package's own CLI from node_modules) with a generated
 *    config: the Awesome report in single-file mode (data inlined: a multi-file report fetches
 *    data files, which browsers block from file://), our categories, the run's variables.
 * 3. Removes the Google Tag Manager / analytics tags Allure 3 embeds (see STACK.md) from every
 *    generated HTML/JS/CSS file, then verifies none remain: a report reviewers open must not phone
 *    home. Any leftover fails the command loudly.
 *
 * 4. Adds the requirements catalogue as a page of the report (harness/report/requirements-page.ts),
 *    so the contract's words are inside the one file; with `--history FILE`, Allure keeps the run's
 *    history there and the report shows trends across runs; with `--quality-gate RULES`
 *    (harness/report/quality-gate.ts), the gate's result is shown in the report and a failed gate
 *    makes the command exit 1.
 *
 *   tsx harness/report/build-html.ts [--reports-dir reports] [--results DIR/allure-results] [--output DIR/allure-report]
 *                                    [--history FILE] [--quality-gate maxFailures=0,successRate=0.95]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { allure2Categories, allure3CategoryRulesSource } from './categories.js';
import type { ConformanceReport } from './verdict.js';
import { toolVersion } from './verdict-reporter.js';
import { commandFor } from '../cli/invocation.js';
import { baselineProblemLines } from './baseline.js';
import { REQUIREMENTS_PAGE_UUID, requirementsPageResult } from './requirements-page.js';
import { QualityGateError, evaluateQualityGate, parseQualityGate, qualityGateLine } from './quality-gate.js';
import type { QualityGateResult, QualityGateRules } from './quality-gate.js';
import { loadRequirements } from '../contract/requirements.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Hosts of Google's tag manager and analytics, anchored at the start of a host name: unanchored,
 * `(?:[\w-]+\.)*` retries at every position of a long word run, which is quadratic on the
 * megabytes of inlined data (base64 images) of a single-file report: minutes instead of 0.1 s.
 */
const ANALYTICS_HOST = /(?<![\w.-])(?:[\w-]+\.)*(?:googletagmanager|google-analytics|googleanalytics)\.com/i;
const ANALYTICS_URL_G = /(?:https?:)?\/\/(?:[\w-]+\.)*(?:googletagmanager|google-analytics|googleanalytics)\.com[^\s"'`)<>]*/gi;
const ANALYTICS_HOST_G = new RegExp(ANALYTICS_HOST.source, 'gi');
/** What an inline analytics snippet looks like (gtag bootstrap, dataLayer, GA measurement id). */
const ANALYTICS_SNIPPET = /googletagmanager|google-analytics|\bgtag\s*\(|\bdataLayer\b|['"]G-[A-Z0-9]{6,}['"]/;
/** What must not remain anywhere in the report (case-sensitive `gtag(` so `toStringTag` is not a hit). */
const LEFTOVER = [/googletagmanager/i, /google-analytics/i, /googleanalytics\.com/i, /\bgtag\s*\(/];

const SCRUBBED_EXTENSIONS = new Set(['.html', '.htm', '.js', '.mjs', '.cjs', '.css']);
const VERIFIED_EXTENSIONS = new Set([...SCRUBBED_EXTENSIONS, '.json', '.txt', '.svg', '.map']);

/** Removes analytics from one HTML document: script blocks, link/img/iframe tags, noscript fallbacks, bare URLs. */
export function scrubHtml(html: string): { html: string; removed: number } {
  let removed = 0;
  let out = html.replace(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi, (block: string, attrs: string, body: string) => {
    // a bundled app (single-file report) is large and is never dropped: only small snippets are
    if (ANALYTICS_HOST.test(attrs) || (body.length < 8000 && ANALYTICS_SNIPPET.test(body))) {
      removed += 1;
      return '';
    }
    return block;
  });
  out = out.replace(/<noscript\b[^>]*>[\s\S]*?<\/noscript\s*>/gi, (block) => {
    if (!ANALYTICS_HOST.test(block)) return block;
    removed += 1;
    return '';
  });
  out = out.replace(/<(?:link|img|iframe)\b[^>]*>(?:\s*<\/iframe>)?/gi, (tag) => {
    if (!ANALYTICS_HOST.test(tag)) return tag;
    removed += 1;
    return '';
  });
  const { text, removed: urls } = scrubUrls(out);
  return { html: text, removed: removed + urls };
}

/** Replaces analytics URLs and host names inside scripts/styles with inert text. */
export function scrubUrls(text: string): { text: string; removed: number } {
  let removed = 0;
  const out = text
    .replace(ANALYTICS_URL_G, () => {
      removed += 1;
      return 'about:blank';
    })
    .replace(ANALYTICS_HOST_G, () => {
      removed += 1;
      return 'analytics.invalid';
    });
  return { text: out, removed };
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

/** Scrubs every HTML/JS/CSS file under dir; returns how many tags/URLs were removed per file. */
export function scrubReport(dir: string): Record<string, number> {
  const changes: Record<string, number> = {};
  for (const path of walk(dir)) {
    const ext = extname(path).toLowerCase();
    if (!SCRUBBED_EXTENSIONS.has(ext)) continue;
    const before = readFileSync(path, 'utf8');
    const { text, removed } = ext === '.html' || ext === '.htm' ? (({ html, removed: r }) => ({ text: html, removed: r }))(scrubHtml(before)) : scrubUrls(before);
    if (removed > 0) {
      writeFileSync(path, text);
      changes[relative(dir, path)] = removed;
    }
  }
  return changes;
}

/** Files under dir that still mention analytics (`file: match`). */
export function findAnalytics(dir: string): string[] {
  const hits: string[] = [];
  for (const path of walk(dir)) {
    if (!VERIFIED_EXTENSIONS.has(extname(path).toLowerCase())) continue;
    const text = readFileSync(path, 'utf8');
    for (const pattern of LEFTOVER) {
      const m = pattern.exec(text);
      if (m !== null) hits.push(`${relative(dir, path)}: ${text.slice(Math.max(0, m.index - 40), m.index + 60).replace(/\s+/g, ' ')}`);
    }
  }
  return hits;
}

function readConformance(reportsDir: string): ConformanceReport | undefined {
  const path = join(reportsDir, 'conformance.json');
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as ConformanceReport;
  } catch {
    return undefined;
  }
}

/** The run's description shown in the report (environment and variables). */
export function environmentInfo(report: ConformanceReport | undefined): Record<string, string> {
  const info: Record<string, string> = { tool: `paygate-conformance ${report?.version ?? toolVersion()}` };
  if (report === undefined) return info;
  info['profile'] = report.profile + (report.strict ? ' (strict)' : '');
  info['seed'] = String(report.seed ?? 'n/a');
  info['started'] = report.startedAt;
  info['target.gateway'] = report.targets.gateway ?? `not tested${report.notTested.gateway !== undefined ? ` (${report.notTested.gateway})` : ''}`;
  info['target.partner'] = report.targets.partner ?? `not tested${report.notTested.partner !== undefined ? ` (${report.notTested.partner})` : ''}`;
  if (report.embedded) info['target'] = 'embedded reference sandbox';
  info['result'] = report.outcome.toUpperCase();
  const s = report.summary;
  info['summary'] = `${s.passed} passed, ${s.failed} failed, ${s.warnings} warnings, ${s.notRun} not run, ${s.inconclusive ?? 0} inconclusive, ${s.errors} harness errors, ${s.requests} requests`;
  // adoption (harness/report/adoption.ts): accepted deviations and history, when the run had them
  if (report.accepted !== undefined && report.accepted.length > 0) {
    info['accepted deviations'] = report.accepted.map((a) => `${a.check} ${a.code} (${a.reason})`).join('; ');
  }
  if (report.baseline !== undefined && report.baseline.problems > 0) info['baseline entries to review'] = baselineProblemLines(report.baseline).join('; ');
  const h = report.history;
  if (h !== undefined) {
    info['since last run'] = h.previous === undefined ? 'first run on this target and profile' : h.changed.length === 0 ? `no verdict changed (since ${h.previous.startedAt})` : h.changed.map((c) => `${c.id}: ${c.from} → ${c.to}`).join('; ');
    if (h.flaky.length > 0) info['flaky checks'] = h.flaky.map((f) => `${f.check} (${f.states.join(' → ')})`).join('; ');
  }
  return info;
}

function properties(info: Record<string, string>): string {
  const escape = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/([=:])/g, '\\$1');
  return `${Object.entries(info).map(([k, v]) => `${escape(k)}=${escape(v)}`).join('\n')}\n`;
}

/** The Allure 3 config (JavaScript, so category regexes keep their flags). */
export function allureConfigSource(options: { output: string; reportName: string; variables: Record<string, string>; historyPath?: string }): string {
  return [
    '// generated by harness/report/build-html.ts',
    'export default {',
    `  name: ${JSON.stringify(options.reportName)},`,
    `  output: ${JSON.stringify(options.output)},`,
    ...(options.historyPath !== undefined ? [`  historyPath: ${JSON.stringify(options.historyPath)},`, '  appendHistory: true,'] : []),
    '  plugins: {',
    `    awesome: { options: { reportName: ${JSON.stringify(options.reportName)}, singleFile: true, reportLanguage: "en", groupBy: ["epic", "feature", "story"] } },`,
    '  },',
    `  categories: { rules: ${allure3CategoryRulesSource()} },`,
    `  variables: ${JSON.stringify(options.variables)},`,
    '};',
    '',
  ].join('\n');
}

/** allure's bin (`cli.js`), found from its package entry (its exports map hides the file). */
export function allureCli(): string {
  const entry = createRequire(import.meta.url).resolve('allure'); // …/node_modules/allure/dist/index.js
  const cli = join(dirname(dirname(entry)), 'cli.js');
  return existsSync(cli) ? cli : entry;
}

export interface BuildOptions {
  resultsDir: string;
  outputDir: string;
  /** where conformance.json is read from (default: the results directory's parent) */
  reportsDir?: string;
  /** Allure's history file (JSON lines): the report shows trends across the runs it holds */
  historyPath?: string;
  /** thresholds on the run's verdict (harness/report/quality-gate.ts); needs conformance.json */
  qualityGate?: QualityGateRules;
}

export interface BuildResult {
  index: string;
  scrubbed: Record<string, number>;
  durationMs: number;
  /** the quality gate's result, when one was given */
  qualityGate?: { passed: boolean; results: QualityGateResult[] };
}

/** Generates the HTML report and removes analytics; throws with a clear message on any problem. */
export function buildHtmlReport(options: BuildOptions): BuildResult {
  const started = Date.now();
  const resultsDir = resolve(options.resultsDir);
  const outputDir = resolve(options.outputDir);
  const reportsDir = resolve(options.reportsDir ?? join(resultsDir, '..'));
  if (!existsSync(resultsDir) || !readdirSync(resultsDir).some((name) => name.endsWith('-result.json'))) {
    throw new Error(`report: no test results in ${resultsDir}; run \`${commandFor('run', { bare: true })}\` first`);
  }
  const conformance = readConformance(reportsDir);
  const info = environmentInfo(conformance);
  let gate: BuildResult['qualityGate'];
  if (options.qualityGate !== undefined) {
    if (conformance === undefined || conformance.scope === undefined) throw new Error(`report: --quality-gate needs the run's conformance.json in ${reportsDir}`);
    gate = evaluateQualityGate(options.qualityGate, conformance);
    info['quality gate'] = qualityGateLine(gate);
  }
  writeFileSync(join(resultsDir, `${REQUIREMENTS_PAGE_UUID}-result.json`), `${JSON.stringify(requirementsPageResult(loadRequirements(), conformance?.requirements ?? []))}\n`);
  writeFileSync(join(resultsDir, 'environment.properties'), properties(info));
  writeFileSync(join(resultsDir, 'categories.json'), `${JSON.stringify(allure2Categories(), null, 2)}\n`);

  const reportName = conformance !== undefined
    ? `paygate-conformance — ${conformance.profile} — ${conformance.outcome.toUpperCase()}`
    : 'paygate-conformance';
  const configDir = mkdtempSync(join(tmpdir(), 'paygate-allure-'));
  const configFile = join(configDir, 'allurerc.mjs');
  writeFileSync(configFile, allureConfigSource({ output: outputDir, reportName, variables: info, ...(options.historyPath !== undefined && { historyPath: resolve(options.historyPath) }) }));
  rmSync(outputDir, { recursive: true, force: true });
  mkdirSync(outputDir, { recursive: true });
  try {
    const cli = allureCli();
    const result = spawnSync(process.execPath, [cli, 'generate', resultsDir, '--output', outputDir, '--config', configFile], {
      cwd: ROOT,
      env: { ...process.env, ALLURE_NO_ANALYTICS: 'true', NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (result.error !== undefined) throw new Error(`report: could not run allure: ${result.error.message}`);
    if (result.status !== 0) {
      throw new Error(`report: allure generate exited with ${result.status}:\n${result.stdout}${result.stderr}`);
    }
  } finally {
    rmSync(configDir, { recursive: true, force: true });
  }
  const index = join(outputDir, 'index.html');
  if (!existsSync(index)) throw new Error(`report: allure produced no ${index}`);

  const scrubbed = scrubReport(outputDir);
  const leftovers = findAnalytics(outputDir);
  if (leftovers.length > 0) {
    throw new Error(`report: analytics references remain after scrubbing (the report would phone home):\n  ${leftovers.join('\n  ')}`);
  }
  return { index, scrubbed, durationMs: Date.now() - started, ...(gate !== undefined && { qualityGate: gate }) };
}

/** `paygate-conformance report [--reports-dir DIR] [--results DIR] [--output DIR] [--history FILE] [--quality-gate RULES]` (flags parsed by harness/cli/program.ts). */
export function reportCommand(values: { [flag: string]: unknown }): number {
  const text = (name: string): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
  // the user's working directory (an installed package must not look inside node_modules)
  const reportsDir = resolve(text('reports-dir') ?? process.env['PAYGATE_REPORTS_DIR'] ?? 'reports');
  const results = text('results');
  const output = text('output');
  const historyFile = text('history');
  const gateText = text('quality-gate');
  let qualityGate: QualityGateRules | undefined;
  if (gateText !== undefined) {
    try {
      qualityGate = parseQualityGate(gateText);
    } catch (error) {
      console.error(error instanceof QualityGateError ? error.message : String(error));
      return 2;
    }
  }
  try {
    const result = buildHtmlReport({
      resultsDir: results !== undefined ? resolve(results) : join(reportsDir, 'allure-results'),
      outputDir: output !== undefined ? resolve(output) : join(reportsDir, 'allure-report'),
      ...(results === undefined && { reportsDir }),
      ...(historyFile !== undefined && { historyPath: resolve(historyFile) }),
      ...(qualityGate !== undefined && { qualityGate }),
    });
    const removed = Object.values(result.scrubbed).reduce((a, b) => a + b, 0);
    const size = (statSync(result.index).size / 1e6).toFixed(1);
    console.log(`report: ${relative(process.cwd(), result.index) || result.index} (one file, ${size} MB, ${(result.durationMs / 1000).toFixed(1)} s; ${removed} analytics tag(s)/URL(s) removed, none remain)\nopen it in a browser: ${pathToFileURL(result.index).href}`);
    if (result.qualityGate !== undefined) {
      console.log(`quality gate ${qualityGateLine(result.qualityGate)}`);
      return result.qualityGate.passed ? 0 : 1;
    }
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}
