/**
 * The requirement catalogue: every normative statement of the two contract documents, keyed by a
 * stable ID (`GW-…` gateway, `PT-…` partner). Checks, faults and spec constraints (`x-requirement`)
 * name these IDs; the report quotes the contract through them.
 *
 * Source: `specs/requirements.yaml`. The path resolves from this module, never from the working
 * directory.
 */
import { cacheKey, readCachedJson, writeCached } from './cache.js';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HarnessError } from '../core/errors.js';
import { REQUIREMENT_IDS } from '../core/requirement-ids.js';
import { yaml } from '../core/yaml.js';
import type { RequirementId } from '../core/requirement-ids.js';

export type RequirementApi = 'gateway' | 'partner';
export type RequirementKind = 'checkable' | 'timer' | 'unobservable';
export type RequirementSeverity = 'critical' | 'normal' | 'minor';
/**
 * Who the requirement binds, when it is not the API itself: `receiver` = the integrator's webhook
 * endpoint (decided only in a receiver run, suites/receiver/; "not run" in an API run).
 */
export type RequirementTarget = 'receiver';

export interface Requirement {
  /** `GW-…` or `PT-…`: AREA then RULE, upper-case, dashes */
  readonly id: string;
  readonly api: RequirementApi;
  /** the contract heading the statement comes from */
  readonly section: string;
  /** the contract's own words */
  readonly quote: string;
  /** `timer`: checkable only by waiting for a contract timer (full profile) */
  readonly kind: RequirementKind;
  /** why no documented surface shows it; present exactly when kind is `unobservable` */
  readonly reason?: string;
  /** what the text leaves ambiguous here, and how the rules read it (often: one reading warns, the rest is firm) */
  readonly ambiguity?: string;
  /** `warning`: the whole sentence is ambiguous, so every finding naming only such requirements is a warning (harness/rules/judgement.ts) */
  readonly latitude?: 'warning';
  /** how much a failure matters; `normal` when the catalogue says nothing */
  readonly severity?: RequirementSeverity;
  /** absent: a duty of the API (service); `receiver`: a duty of the integrator's webhook endpoint */
  readonly target?: RequirementTarget;
  /**
   * Why no reference fault can prove this requirement (issue 15: every checkable and timer
   * requirement is broken by a detected fault, or the catalogue says why not). Only on a checkable
   * or timer requirement; the fault matrix lists it as an exception with this reason.
   */
  readonly exempt?: string;
}

export const REQUIREMENT_ID_PATTERN = /^(GW|PT)-[A-Z0-9]+(-[A-Z0-9]+)*$/;

const SPECS_DIR = fileURLToPath(new URL('../../specs/', import.meta.url));
const MERGED_FILE = 'requirements.yaml';

const APIS: readonly RequirementApi[] = ['gateway', 'partner'];
const KINDS: readonly RequirementKind[] = ['checkable', 'timer', 'unobservable'];
const SEVERITIES: readonly RequirementSeverity[] = ['critical', 'normal', 'minor'];
const TARGETS: readonly RequirementTarget[] = ['receiver'];
/** The entry keys docs/ARCHITECTURE.md defines (plus `severity`); other keys are ignored by the loader. */
export const REQUIREMENT_KEYS: readonly string[] = ['id', 'api', 'section', 'quote', 'kind', 'reason', 'ambiguity', 'latitude', 'severity', 'target', 'exempt'];
const PREFIX_OF: Record<RequirementApi, string> = { gateway: 'GW-', partner: 'PT-' };

/** One catalogue file's text and where it came from (for error messages). */
export interface CatalogueSource {
  readonly name: string;
  readonly text: string;
}

function invalid(message: string): never {
  throw new HarnessError('requirements.invalid', `requirements: ${message}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyString(entry: Record<string, unknown>, key: string, where: string): string {
  const value = entry[key];
  if (typeof value !== 'string' || value.trim() === '') invalid(`${where}: "${key}" must be a non-empty string`);
  return value;
}

function optionalString(entry: Record<string, unknown>, key: string, where: string): string | undefined {
  const value = entry[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim() === '') invalid(`${where}: "${key}" must be a non-empty string when present`);
  return value;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], key: string, where: string): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  return invalid(`${where}: "${key}" must be one of ${allowed.join(' | ')}, got ${JSON.stringify(value)}`);
}

function toRequirement(raw: unknown, where: string): Requirement {
  if (!isRecord(raw)) invalid(`${where}: an entry must be a mapping`);
  const id = nonEmptyString(raw, 'id', where);
  const at = `${where} (${id})`;
  if (!REQUIREMENT_ID_PATTERN.test(id)) invalid(`${at}: id must match ${REQUIREMENT_ID_PATTERN.source}`);
  const api = oneOf(raw['api'], APIS, 'api', at);
  if (!id.startsWith(PREFIX_OF[api])) invalid(`${at}: an ${api} requirement's id starts with ${PREFIX_OF[api]}`);
  const section = nonEmptyString(raw, 'section', at);
  const quote = nonEmptyString(raw, 'quote', at);
  const kind = oneOf(raw['kind'], KINDS, 'kind', at);
  const reason = optionalString(raw, 'reason', at);
  const ambiguity = optionalString(raw, 'ambiguity', at);
  const latitude = raw['latitude'] === undefined || raw['latitude'] === null ? undefined : oneOf(raw['latitude'], ['warning'] as const, 'latitude', at);
  if (latitude !== undefined && ambiguity === undefined) invalid(`${at}: "latitude" needs the "ambiguity" it follows from`);
  const severity =
    raw['severity'] === undefined || raw['severity'] === null
      ? undefined
      : oneOf(raw['severity'], SEVERITIES, 'severity', at);
  const target = raw['target'] === undefined || raw['target'] === null ? undefined : oneOf(raw['target'], TARGETS, 'target', at);
  if (kind === 'unobservable' && reason === undefined) invalid(`${at}: an unobservable requirement needs a "reason"`);
  const exempt = optionalString(raw, 'exempt', at);
  if (exempt !== undefined && kind === 'unobservable') invalid(`${at}: "exempt" (no fault can prove it) is for checkable and timer requirements; an unobservable one needs no proof`);
  return {
    id,
    api,
    section,
    quote,
    kind,
    ...(reason !== undefined && { reason }),
    ...(ambiguity !== undefined && { ambiguity }),
    ...(latitude !== undefined && { latitude }),
    // eslint-disable-next-line no-restricted-syntax -- a requirement's importance in the catalogue (critical/normal/minor), not a finding's severity
    ...(severity !== undefined && { severity }),
    ...(target !== undefined && { target }),
    ...(exempt !== undefined && { exempt }),
  };
}

/**
 * Parses and validates catalogue sources (pure; exported for tests). Throws a `HarnessError`
 * (`requirements.invalid`) naming the file, the entry and the rule broken.
 */
export function parseRequirements(sources: readonly CatalogueSource[]): readonly Requirement[] {
  const all: Requirement[] = [];
  const seen = new Map<string, string>();
  for (const source of sources) {
    let doc: unknown;
    try {
      doc = yaml().parse(source.text);
    } catch (error) {
      invalid(`${source.name}: not valid YAML: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (doc === null || doc === undefined) continue; // an empty half is allowed while it is being written
    if (!Array.isArray(doc)) invalid(`${source.name}: the catalogue must be a YAML list of entries`);
    doc.forEach((raw: unknown, index: number) => {
      const requirement = toRequirement(raw, `${source.name} entry #${index + 1}`);
      const first = seen.get(requirement.id);
      if (first !== undefined) invalid(`duplicate id ${requirement.id} in ${source.name} (first in ${first})`);
      seen.set(requirement.id, source.name);
      all.push(Object.freeze(requirement));
    });
  }
  return Object.freeze(all);
}

/** The catalogue files the loader reads, in order: the merged file, else the halves present. */
export function catalogueFiles(specsDir: string = SPECS_DIR): readonly string[] {
  const merged = `${specsDir}${MERGED_FILE}`;
  return existsSync(merged) ? [merged] : [];
}

/**
 * {@link parseRequirements} of the sources, kept on disk by a hash of their text (harness/contract/cache.ts):
 * parsing the YAML catalogue cost every worker about 0.2 s. Only a catalogue that parsed and
 * validated is written, so a cached one is a valid one.
 */
function cachedRequirements(sources: readonly CatalogueSource[]): readonly Requirement[] {
  const name = `requirements-${cacheKey(sources.flatMap((s) => [s.name, s.text]), ['yaml'])}.json`;
  const cached = readCachedJson(name, (value): value is Requirement[] => Array.isArray(value));
  if (cached !== undefined) return Object.freeze(cached.map((requirement) => Object.freeze(requirement)));
  const list = parseRequirements(sources);
  writeCached(name, JSON.stringify(list));
  return list;
}

let cache: { readonly list: readonly Requirement[]; readonly byId: ReadonlyMap<string, Requirement> } | undefined;

function loaded(): NonNullable<typeof cache> {
  if (cache === undefined) {
    const files = catalogueFiles();
    if (files.length === 0) {
      invalid(`no catalogue found: ${SPECS_DIR}${MERGED_FILE}`);
    }
    const sources = files.map((path) => ({ name: path, text: readFileSync(path, 'utf8') }));
    const list = cachedRequirements(sources);
    cache = { list, byId: new Map(list.map((requirement) => [requirement.id, requirement])) };
  }
  return cache;
}

/** Every requirement, validated, read once per process. */
export function loadRequirements(): readonly Requirement[] {
  return loaded().list;
}

/** The requirement with this id, or `undefined`. */
export function findRequirement(id: string): Requirement | undefined {
  return loaded().byId.get(id);
}

/** The requirement with this id; throws for an unknown id (a typo in a check is a harness bug). */
export function getRequirement(id: string): Requirement {
  const requirement = findRequirement(id);
  if (requirement === undefined) {
    throw new HarnessError('requirements.unknown-id', `requirements: unknown requirement id ${id}`);
  }
  return requirement;
}

/** True when the requirement binds the integrator's webhook endpoint (decided only in a receiver run). */
export function isReceiverRequirement(requirement: Pick<Requirement, 'target'>): boolean {
  return requirement.target === 'receiver';
}

/** The requirements of one API, in catalogue order. */
export function requirementsFor(api: RequirementApi): readonly Requirement[] {
  return loaded().list.filter((requirement) => requirement.api === api);
}

const KNOWN_IDS: ReadonlySet<string> = new Set(REQUIREMENT_IDS);

/** True for an ID of the catalogue the project was built with (harness/core/requirement-ids.ts). */
export function isRequirementId(id: string): id is RequirementId {
  return KNOWN_IDS.has(id);
}
