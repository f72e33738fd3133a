/**
 * `paygate-conformance list [--json] [--api …] [--profile …] [selection flags]`: the checks (id,
 * title, API, area, severity, tier, requirements, credentials they need, estimated requests) and
 * the requirements (ID, API, kind, section, the checks that set out to decide it). With selection
 * flags, what a run with the same flags would register. Nothing is started.
 */
import type { Profile, SelectionOptions } from './args.js';
import type { RawValues } from './parse.js';
import { resolveRun } from './config-file.js';
import { EXIT } from './exit-codes.js';
import { loadManifest } from './manifest.js';
import type { CheckEntry } from './manifest.js';
import { inScope, selectChecks } from './selection.js';
import { loadBaseline as loadPlanBaseline } from './plan.js';
import { packageVersion } from '../version.js';

export interface ListedCheck extends CheckEntry {
  /** requests against the embedded reference in this profile (an estimate; timer and certify checks ~10) */
  estimatedRequests: number | null;
}

export interface ListedRequirement {
  id: string;
  api: string;
  kind: string;
  section: string;
  target?: string;
  checks: string[];
}

/** What `list --json` prints. */
export interface Listing {
  tool: 'paygate-conformance';
  version: string;
  profile: Profile;
  selection?: SelectionOptions;
  checks: ListedCheck[];
  requirements: ListedRequirement[];
}

/** Needs named as the variables that provide them (`gateway.live` → GATEWAY_LIVE_CLIENT_ID/SECRET). */
const NEED_VARIABLES: Record<string, string> = {
  gateway: 'GATEWAY_BASE_URL, GATEWAY_CLIENT_ID/SECRET',
  'gateway.live': 'GATEWAY_LIVE_CLIENT_ID/SECRET',
  'gateway.other': 'GATEWAY_OTHER_CLIENT_ID/SECRET',
  'gateway.split': 'GATEWAY_SPLIT_EMAIL',
  partner: 'PARTNER_BASE_URL, PARTNER_API_KEY',
  'partner.live': 'PARTNER_LIVE_API_KEY',
  'partner.other': 'PARTNER_OTHER_API_KEY',
  'partner.webhooks': 'PARTNER_WEBHOOK_SECRET',
};

export async function buildListing(values: RawValues, given: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<Listing> {
  // the configuration file's selection too: what a run here would register
  const { options } = resolveRun(values, given, env);
  const manifest = await loadManifest(env);
  const selection = selectChecks(manifest.checks, options);
  const chosen = selection !== undefined ? new Set(selection.ids) : undefined;
  const checks = (options.api === 'both' ? manifest.checks : inScope(manifest.checks, options.api, false)).filter((c) => chosen === undefined || chosen.has(c.id));
  const plan = new Map((loadPlanBaseline()?.checks ?? []).map((p) => [p.id, p]));
  const listed = checks.map((c): ListedCheck => {
    const p = plan.get(c.id);
    const estimate = p === undefined ? null : p.tier !== 'quick' ? 10 : options.profile === 'quick' ? p.quick : p.full;
    return { ...c, estimatedRequests: estimate };
  });
  const { loadRequirements } = await import('../contract/requirements.js');
  const byRequirement = new Map<string, string[]>();
  for (const c of manifest.checks) for (const id of c.requirements) byRequirement.set(id, [...(byRequirement.get(id) ?? []), c.id]);
  const requirements = loadRequirements()
    .filter((r) => options.api === 'both' || r.api === options.api)
    .map((r): ListedRequirement => ({ id: r.id, api: r.api, kind: r.kind, section: r.section, ...(r.target !== undefined && { target: r.target }), checks: byRequirement.get(r.id) ?? [] }));
  return {
    tool: 'paygate-conformance',
    version: packageVersion(),
    profile: options.profile,
    ...(selection !== undefined && { selection: selection.record.given }),
    checks: listed,
    requirements,
  };
}

function columns(rows: readonly string[][]): string[] {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd());
}

export function renderListing(listing: Listing): string {
  const out: string[] = [`${listing.checks.length} checks (estimated requests: profile ${listing.profile}, against the embedded reference)`, ''];
  const rows = [['id', 'api', 'tier', 'severity', 'requests', 'needs', 'title'], ...listing.checks.map((c) => [c.id, c.target === 'receiver' ? `${c.api} receiver` : c.api, c.tier, c.severity, c.estimatedRequests === null ? '?' : String(c.estimatedRequests), c.needs.length > 0 ? c.needs.map((n) => NEED_VARIABLES[n] ?? n).join('; ') : '-', c.title])];
  out.push(...columns(rows));
  out.push('', 'requirements each check sets out to decide:');
  for (const c of listing.checks) out.push(`  ${c.id}: ${c.requirements.join(', ')}`);
  const kinds = new Map<string, number>();
  for (const r of listing.requirements) kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
  out.push('', `${listing.requirements.length} requirements (${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ')}):`);
  out.push(...columns([['id', 'api', 'kind', 'checks'], ...listing.requirements.map((r) => [r.id, r.target === 'receiver' ? `${r.api} receiver` : r.api, r.kind, r.checks.length > 0 ? String(r.checks.length) : r.kind === 'unobservable' ? '-' : '0 (not covered)'])]).map((l) => `  ${l}`));
  return out.join('\n');
}

export async function listCommand(values: RawValues, given: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const listing = await buildListing(values, given, env);
  process.stdout.write(`${values['json'] === true ? JSON.stringify(listing, null, 2) : renderListing(listing)}\n`);
  return EXIT.pass;
}
