/**
 * Contract validation of responses against the OpenAPI specs (ajv, JSON Schema 2020-12).
 *
 * Each bundled document is registered once in ajv under a URN `$id` (`urn:paygate:gateway`,
 * `urn:paygate:partner`) so internal `$ref`s stay intact; a validator is compiled lazily once per
 * (operation, status key, media type) from `{ $ref: 'urn:paygate:<api>#/paths/…/schema' }`.
 *
 * Rules (the contract is the source of truth; the spec encodes it):
 * - one finding per ajv error (`allErrors`), code `contract.schema`, located by the instance path,
 *   naming the `x-requirement` at the failing schema node or its nearest ancestor;
 * - a status the operation does not document → `contract.status-undocumented`, a WARNING; 401 and
 *   429 are always allowed (gateway: "Every route can answer 401 and 429"); statuses of the API's
 *   general Errors table are allowed anywhere but reported as warnings when unlisted for the
 *   operation; any 5xx is a FAILURE (`target.5xx`);
 * - a body that is not JSON where JSON is documented → FAILURE `contract.not-json`; a JSON body with
 *   a non-JSON Content-Type → WARNING `contract.content-type` (the contract names no header);
 * - undocumented response parts are open: nothing is invented beyond the spec.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Exchange } from '../core/exchange.js';
import type { Finding, Judgement, RequirementId } from '../rules/finding.js';
import { HarnessError } from '../core/errors.js';
import type { ApiName } from '../http/client.js';
import { defaultRedactor } from '../http/redact.js';
import type { Redactor } from '../http/redact.js';
import { loadSpec } from './spec.js';
import type { OpenApiDocument } from './spec.js';

// ajv-formats is CommonJS: under NodeNext its default import may arrive as the module object
type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

/** Statuses of each API's general Errors table: allowed for any operation. */
export const GENERAL_ERROR_STATUSES: Record<ApiName, readonly number[]> = {
  gateway: [400, 401, 403, 404, 409, 422, 429],
  partner: [401, 403, 404, 409, 422],
};

/** Statuses every route may answer without being listed (gateway "Endpoints": 401 and 429). */
export const ALWAYS_ALLOWED_STATUSES: readonly number[] = [401, 429];

/** Requirement named when neither the schema node nor the operation names one. */
export const FALLBACK_REQUIREMENTS: Record<ApiName, RequirementId> = {
  gateway: 'GW-JSON-BODIES',
  partner: 'PT-BODY-JSON',
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** A concrete request matched to a spec operation. */
export interface OperationMatch {
  api: ApiName;
  /** `METHOD template`, e.g. `GET /api/v1/pix/in/qrcode/{transactionId}` */
  operation: string;
  method: string;
  /** the path template as written in the spec */
  template: string;
  pathParams: Record<string, string>;
}

export interface ContractOptions {
  /** which APIs to load (default both) */
  apis?: ApiName[];
  /** spec paths (default specs/<api>.openapi.yaml) */
  specPaths?: Partial<Record<ApiName, string>>;
  /** already-bundled documents (tests); used instead of loading a path */
  documents?: Partial<Record<ApiName, OpenApiDocument>>;
  redactor?: Redactor;
  fallbackRequirements?: Partial<Record<ApiName, RequirementId>>;
}

/** Raw (unredacted) response data to validate instead of the recorded, redacted one. */
export interface RawResponse {
  json?: unknown;
  text?: string;
  /** response headers as received (names lower-case); only the Content-Type is read */
  headers?: Record<string, string>;
}

type Json = Record<string, unknown>;

/** See Contract.statusPlan. */
interface StatusPlan {
  /** the operation's own requirements, else the API's fallback: named by findings about the status */
  readonly general: readonly RequirementId[];
  /** the documented response key (`200`, `2XX`, `default`), undefined when undocumented */
  readonly key: string | undefined;
  /** the response's `content`, undefined when it documents none */
  readonly content: Json | undefined;
  /** x-requirement of the response node or its nearest ancestor */
  readonly responseRequirements: readonly RequirementId[];
  /** per Content-Type media type seen (`''`: none) */
  readonly media: Map<string, MediaPlan | undefined>;
}

/** See Contract.mediaPlan. */
interface MediaPlan {
  readonly mediaType: string;
  readonly open: 'optional' | 'any' | undefined;
  readonly validate: ValidateFunction | undefined;
  readonly schemaRequirements: readonly RequirementId[];
}

interface CompiledOperation {
  match: Omit<OperationMatch, 'pathParams'>;
  segments: string[];
  node: Json;
  pointer: string;
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The IDs an `x-requirement` names (a string or a list); test/spec-*.test.ts proves each is in the catalogue. */
function requirementIds(value: unknown): RequirementId[] {
  const list: unknown[] = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  return list.filter((v): v is RequirementId => typeof v === 'string');
}

const mediaTypes = new Map<string, string | undefined>();
function mediaTypeOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  // a handful of distinct Content-Type values per run, one per response: kept (bounded)
  if (mediaTypes.has(contentType)) return mediaTypes.get(contentType);
  const media = contentType.split(';')[0]?.trim().toLowerCase() || undefined;
  if (mediaTypes.size < 64) mediaTypes.set(contentType, media);
  return media;
}

function isJsonMediaType(mediaType: string | undefined): boolean {
  return !!mediaType && (mediaType === 'application/json' || mediaType.endsWith('+json'));
}

function truncate(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

function valueAt(root: unknown, instancePath: string): unknown {
  if (!instancePath) return root;
  let node: unknown = root;
  for (const raw of instancePath.split('/').slice(1)) {
    const key = unescapePointer(raw);
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = node[key];
    else return undefined;
  }
  return node;
}

/** One API's document, ajv registration and lookups. */
class ApiSpec {
  readonly urn: string;
  readonly operations: CompiledOperation[] = [];
  /** schema/spec node → parent node, for "nearest ancestor" x-requirement lookups */
  readonly parents = new WeakMap<object, object>();

  constructor(
    readonly api: ApiName,
    readonly doc: Json,
  ) {
    this.urn = `urn:paygate:${api}`;
    this.indexParents(doc);
    const paths = isObject(doc.paths) ? doc.paths : {};
    for (const [template, rawItem] of Object.entries(paths)) {
      const item = this.deref(rawItem, `#/paths/${escapePointer(template)}`);
      if (!item) continue;
      // partner paths are relative to a base ending in /v1; tolerate a spec that repeats `/v1`
      const matchTemplate = api === 'partner' ? template.replace(/^\/v1(?=\/)/, '') : template;
      const segments = matchTemplate.split('/').filter((s) => s !== '');
      for (const method of HTTP_METHODS) {
        const op = item.node[method];
        if (!isObject(op)) continue;
        this.operations.push({
          match: { api, operation: `${method.toUpperCase()} ${template}`, method: method.toUpperCase(), template },
          segments,
          node: op,
          pointer: `${item.pointer}/${method}`,
        });
      }
    }
    // literal segments before parameters: `/charges/search` wins over `/charges/{id}`
    this.operations.sort((a, b) => literalScore(b.segments) - literalScore(a.segments));
    for (const op of this.operations) this.byName.set(op.match.operation, op);
  }

  /** operation name (`GET /charges/{id}`) → operation: looked up on every response */
  readonly byName = new Map<string, CompiledOperation>();

  private indexParents(node: unknown, parent?: object): void {
    if (typeof node !== 'object' || node === null) return;
    if (parent) {
      if (this.parents.has(node)) return;
      this.parents.set(node, parent);
    }
    for (const child of Array.isArray(node) ? node : Object.values(node)) this.indexParents(child, node);
  }

  /** Resolves a local `$ref` chain (for responses, path items, schemas), with its pointer. */
  deref(value: unknown, pointer?: string): { node: Json; pointer: string } | undefined {
    let node = value;
    let at = pointer ?? '';
    for (let i = 0; i < 20 && isObject(node) && typeof node.$ref === 'string'; i++) {
      const ref = node.$ref;
      if (!ref.startsWith('#')) return undefined;
      at = ref;
      node = this.resolvePointer(ref);
    }
    return isObject(node) ? { node, pointer: at } : undefined;
  }

  resolvePointer(ref: string): unknown {
    let node: unknown = this.doc;
    for (const raw of ref.replace(/^#\/?/, '').split('/')) {
      if (raw === '') continue;
      const key = unescapePointer(raw);
      node = Array.isArray(node) ? node[Number(key)] : isObject(node) ? node[key] : undefined;
    }
    return node;
  }

  /** x-requirement of the node or its nearest ancestor. */
  nearestRequirement(node: object | undefined): RequirementId[] {
    for (let n: object | undefined = node; n; n = this.parents.get(n)) {
      if (isObject(n) && n['x-requirement'] !== undefined) {
        const ids = requirementIds(n['x-requirement']);
        if (ids.length) return ids;
      }
    }
    return [];
  }
}

function literalScore(segments: string[]): number {
  return segments.reduce((score, s, i) => score + (/^\{.*\}$/.test(s) ? 0 : 2 ** (10 - Math.min(i, 10))), segments.length * 10_000);
}

export class Contract {
  private readonly ajv: Ajv2020;
  private readonly specs = new Map<ApiName, ApiSpec>();
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly schemaRequirementCache = new Map<string, readonly RequirementId[]>();
  private readonly statusPlans = new Map<string, StatusPlan>();
  private readonly redactor: Redactor;
  private readonly fallback: Record<ApiName, RequirementId>;

  private constructor(documents: Partial<Record<ApiName, Json>>, options: ContractOptions) {
    this.redactor = options.redactor ?? defaultRedactor;
    this.fallback = { ...FALLBACK_REQUIREMENTS, ...options.fallbackRequirements };
    this.ajv = new Ajv2020({
      allErrors: true,
      verbose: true,
      strict: true,
      strictTypes: false,
      strictTuples: false,
      strictRequired: false,
      allowUnionTypes: true,
      validateFormats: true,
    });
    addFormats(this.ajv);
    // OpenAPI formats without a JSON Schema meaning: annotations only
    for (const f of ['int32', 'int64', 'float', 'double', 'password', 'binary']) this.ajv.addFormat(f, true);
    // any other format the specs name but ajv-formats does not know stays an annotation
    const formats = new Set<string>();
    for (const doc of Object.values(documents)) collectFormats(doc, formats);
    for (const f of formats) if (!this.ajv.formats[f]) this.ajv.addFormat(f, true);
    const keywords = new Set(['example', 'discriminator', 'xml', 'externalDocs', 'x-requirement', 'x-body']);
    // root keys of an OpenAPI document: ajv compiles the registered root when resolving into it
    for (const k of ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags']) keywords.add(k);
    for (const doc of Object.values(documents)) collectExtensionKeys(doc, keywords);
    for (const k of keywords) if (!this.ajv.getKeyword(k)) this.ajv.addKeyword(k);
    for (const [api, doc] of Object.entries(documents) as [ApiName, Json][]) {
      const spec = new ApiSpec(api, doc);
      this.specs.set(api, spec);
      const { $schema: _ignored, ...rest } = doc;
      // shallow copy: nested nodes keep their identity (ajv's parentSchema → our parent index)
      this.ajv.addSchema({ ...rest, $id: spec.urn });
    }
  }

  /** Loads the specs (once per path, see harness/contract/spec.ts) and builds a contract. */
  static async load(options: ContractOptions = {}): Promise<Contract> {
    const apis = options.apis ?? (['gateway', 'partner'] as ApiName[]);
    const documents: Partial<Record<ApiName, Json>> = {};
    for (const api of apis) {
      documents[api] = options.documents?.[api] ?? (await loadSpec(api, options.specPaths?.[api]));
    }
    return new Contract(documents, options);
  }

  /** The APIs this contract has a spec for. */
  get apis(): ApiName[] {
    return [...this.specs.keys()];
  }

  private spec(api: ApiName): ApiSpec {
    const s = this.specs.get(api);
    if (!s) throw new HarnessError('contract.no-spec', `no ${api} spec loaded`);
    return s;
  }

  /** Every operation of an API (`METHOD template`). */
  operations(api: ApiName): string[] {
    return this.spec(api).operations.map((o) => o.match.operation);
  }

  /**
   * Maps a concrete request to its spec operation. `path` is relative to the API base address
   * (partner: after `/v1`); a full URL path also matches (by suffix). Query strings are ignored.
   */
  matchOperation(api: ApiName, method: string, path: string): OperationMatch | undefined {
    const spec = this.specs.get(api);
    if (!spec) return undefined;
    const clean = (path.split('?')[0] ?? '').split('#')[0] ?? '';
    const segments = clean.split('/').filter((s) => s !== '');
    const m = method.toUpperCase();
    // exact first, then as a suffix (a base path in front)
    for (let skip = 0; skip <= segments.length; skip++) {
      const tail = segments.slice(skip);
      for (const op of spec.operations) {
        if (op.match.method !== m || op.segments.length !== tail.length) continue;
        const params: Record<string, string> = {};
        let ok = true;
        for (let i = 0; i < tail.length && ok; i++) {
          const t = op.segments[i] ?? '';
          const seg = tail[i] ?? '';
          const param = /^\{(.+)\}$/.exec(t);
          if (param) {
            let decoded = seg;
            try {
              decoded = decodeURIComponent(seg);
            } catch {
              // keep as sent
            }
            params[param[1] ?? t] = decoded;
          } else if (t !== seg) ok = false;
        }
        if (ok) return { ...op.match, pathParams: params };
      }
    }
    return undefined;
  }

  private findOperation(api: ApiName, operation: string): CompiledOperation | undefined {
    return this.specs.get(api)?.byName.get(operation);
  }

  /** The response keys (`200`, `2XX`, `default`, …) the operation documents. */
  documentedStatuses(api: ApiName, operation: string): string[] {
    const op = this.findOperation(api, operation);
    return op && isObject(op.node.responses) ? Object.keys(op.node.responses) : [];
  }

  /** The documented response key for a status: exact, then range (`2XX`), then `default`. */
  responseKeyFor(api: ApiName, operation: string, status: number): string | undefined {
    const keys = this.documentedStatuses(api, operation);
    const exact = keys.find((k) => k === String(status));
    if (exact) return exact;
    const range = keys.find((k) => k.toUpperCase() === `${Math.floor(status / 100)}XX`);
    if (range) return range;
    return keys.find((k) => k === 'default');
  }

  private responseFor(api: ApiName, operation: string, key: string): { node: Json; pointer: string } | undefined {
    const op = this.findOperation(api, operation);
    if (!op || !isObject(op.node.responses)) return undefined;
    return this.spec(api).deref(op.node.responses[key], `${op.pointer}/responses/${escapePointer(key)}`);
  }

  /**
   * The compiled validator of a documented response body (compiled once, cached); undefined when
   * the response documents no schema for that media type.
   */
  responseValidator(api: ApiName, operation: string, status: number, mediaType = 'application/json'): ValidateFunction | undefined {
    const key = this.responseKeyFor(api, operation, status);
    return key ? this.validatorFor(api, operation, key, mediaType) : undefined;
  }

  /** {@link responseValidator} for a response key already found. */
  private validatorFor(api: ApiName, operation: string, key: string, mediaType: string): ValidateFunction | undefined {
    const cacheKey = `${api} ${operation} ${key} ${mediaType}`;
    const cached = this.validators.get(cacheKey);
    if (cached) return cached;
    const response = this.responseFor(api, operation, key);
    const content = response && isObject(response.node.content) ? response.node.content : undefined;
    const media = content?.[mediaType];
    if (!response || !isObject(media) || media.schema === undefined) return undefined;
    const ref = `${this.spec(api).urn}#${response.pointer.replace(/^#/, '')}/content/${escapePointer(mediaType)}/schema`;
    let validate: ValidateFunction;
    try {
      validate = this.ajv.compile({ $ref: ref });
    } catch (err) {
      throw new HarnessError('contract.compile', `cannot compile the ${api} schema of ${operation} ${key} ${mediaType}: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.validators.set(cacheKey, validate);
    return validate;
  }

  /** Compiles every documented response schema (smoke test); throws HarnessError on the first that fails. */
  compileAll(): { api: ApiName; operation: string; status: string; mediaType: string }[] {
    const out: { api: ApiName; operation: string; status: string; mediaType: string }[] = [];
    for (const api of this.apis) {
      for (const op of this.spec(api).operations) {
        for (const key of this.documentedStatuses(api, op.match.operation)) {
          const response = this.responseFor(api, op.match.operation, key);
          const content = response && isObject(response.node.content) ? response.node.content : {};
          for (const mediaType of Object.keys(content)) {
            const status = /^\d{3}$/.test(key) ? Number(key) : key.toUpperCase().endsWith('XX') ? Number(key[0]) * 100 : 599;
            // `default` is looked up for a status no other key covers
            if (key === 'default' && this.responseKeyFor(api, op.match.operation, status) !== 'default') continue;
            this.responseValidator(api, op.match.operation, status, mediaType);
            out.push({ api, operation: op.match.operation, status: key, mediaType });
          }
        }
      }
    }
    return out;
  }

  /** The requirement IDs an operation names (its own `x-requirement`). */
  operationRequirements(api: ApiName, operation: string): RequirementId[] {
    const op = this.findOperation(api, operation);
    return op ? requirementIds(op.node['x-requirement']) : [];
  }

  /**
   * Validates one exchange's response against the spec: status, body type, schema. `raw` carries
   * the unredacted parse (from HttpResult) so redaction never causes a schema error; displayed
   * values are redacted again. Exchanges without a response or operation give no finding.
   */
  /**
   * Validates one exchange's response against the spec: status, body type, schema. `raw` carries
   * the unredacted parse (from HttpResult) so redaction never causes a schema error; displayed
   * values are redacted again. The judgement decides the operation's requirements and every
   * `x-requirement` of the response schema it validated; an exchange without a response or a
   * documented operation decides nothing.
   */
  validateExchange(exchange: Exchange, raw?: RawResponse): Judgement {
    const evaluated = new Set<RequirementId>();
    const findings = this.findingsFor(exchange, raw, evaluated);
    for (const f of findings) for (const id of f.requirements) evaluated.add(id);
    return { requirements: [...evaluated], findings };
  }

  /** `x-body` of a response's schema: `optional` (may be absent), `any` (anything at all), else undefined. */
  private openBody(api: ApiName, media: unknown): 'optional' | 'any' | undefined {
    const schema = isObject(media) ? this.spec(api).deref(media.schema)?.node : undefined;
    const mark = isObject(schema) ? schema['x-body'] : undefined;
    return mark === 'optional' || mark === 'any' ? mark : undefined;
  }

  /** Every `x-requirement` in a response schema (through `$ref`s), computed once per response. */
  private schemaRequirements(api: ApiName, operation: string, key: string, mediaType: string): readonly RequirementId[] {
    const cacheKey = `${api} ${operation} ${key} ${mediaType}`;
    const cached = this.schemaRequirementCache.get(cacheKey);
    if (cached) return cached;
    const spec = this.spec(api);
    const resp = this.responseFor(api, operation, key);
    const content = resp && isObject(resp.node.content) ? resp.node.content : undefined;
    const root = content && isObject(content[mediaType]) ? (content[mediaType] as Json).schema : undefined;
    const found = new Set<RequirementId>(resp ? requirementIds(resp.node['x-requirement']) : []);
    const seen = new Set<object>();
    const walk = (value: unknown): void => {
      const target = isObject(value) && typeof value.$ref === 'string' ? spec.deref(value)?.node : value;
      if (!isObject(target) && !Array.isArray(target)) return;
      if (seen.has(target)) return;
      seen.add(target);
      if (isObject(target)) for (const id of requirementIds(target['x-requirement'])) found.add(id);
      for (const child of Array.isArray(target) ? target : Object.values(target)) walk(child);
    };
    walk(root);
    const list = [...found];
    this.schemaRequirementCache.set(cacheKey, list);
    return list;
  }

  private findingsFor(exchange: Exchange, raw: RawResponse | undefined, evaluated: Set<RequirementId>): Finding[] {
    const response = exchange.response;
    if (!response || !this.specs.has(exchange.api)) return [];
    const api = exchange.api;
    let operation = exchange.operation;
    if (!operation || !this.findOperation(api, operation)) {
      const path = exchange.request.path ?? safePathname(exchange.request.url);
      operation = this.matchOperation(api, exchange.request.method, path)?.operation;
    }
    if (!operation) return [];
    const status = response.status;
    const plan = this.statusPlan(api, operation, status);
    for (const id of plan.general) evaluated.add(id);
    const base = { exchanges: [exchange] };

    if (status >= 500) {
      return [
        {
          ...base,
          code: 'target.5xx',
          title: `${operation} answered ${status}: a server error is never a conforming answer`,
          severity: 'failure',
          requirements: [...plan.general],
          expected: `a status documented for ${operation} (${this.documentedStatuses(api, operation).join(', ') || 'none'}) or a general error status`,
          actual: `${status} ${truncate(response.body)}`,
        },
      ];
    }

    const findings: Finding[] = [];
    const key = plan.key;
    if (!key) {
      if (!ALWAYS_ALLOWED_STATUSES.includes(status)) {
        const inTable = GENERAL_ERROR_STATUSES[api].includes(status);
        findings.push({
          ...base,
          code: 'contract.status-undocumented',
          title: inTable
            ? `${operation} answered ${status}, which the Errors table allows in general but the operation does not list`
            : `${operation} answered ${status}, a status the contract does not document for it`,
          severity: 'warning',
          requirements: [...plan.general],
          expected: `one of ${this.documentedStatuses(api, operation).join(', ') || '(none documented)'}`,
          actual: String(status),
        });
      }
      return findings;
    }

    const content = plan.content;
    if (!content) return findings;
    // the raw Content-Type when the caller has it: the recorded headers are redacted on first read
    const actualMedia = mediaTypeOf((raw?.headers ?? response.headers)['content-type']);
    const media = this.mediaPlan(api, operation, plan, actualMedia);
    if (!media) return findings;
    const mediaType = media.mediaType;

    const text = raw?.text ?? response.body;
    const parsedByCaller = raw !== undefined && 'json' in raw;
    let body: unknown = parsedByCaller ? raw.json : response.json;
    if (body === undefined && !parsedByCaller) {
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        body = undefined;
      }
    }
    if (body === undefined) {
      // a body the contract does not show (schema marked `x-body: optional` or `x-body: any`) may be
      // absent (204, or 200 with nothing); `x-body: any` also tolerates a body that is not JSON
      const open = media.open;
      if ((open !== undefined && text.trim() === '') || open === 'any') return findings;
      const reqFromResponse = plan.responseRequirements;
      const shownMedia = mediaTypeOf(response.headers['content-type']);
      findings.push({
        ...base,
        code: 'contract.not-json',
        title: `${operation} answered ${status} with a body that is not JSON`,
        severity: 'failure',
        requirements: [this.fallback[api], ...reqFromResponse.filter((r) => r !== this.fallback[api])],
        expected: `a JSON body (${mediaType})`,
        actual: text === '' ? '(empty body)' : `${shownMedia ?? 'no Content-Type'}: ${truncate(this.redactor.redactText(text))}`,
      });
      return findings;
    }
    if (!isJsonMediaType(actualMedia)) {
      const shownMedia = mediaTypeOf(response.headers['content-type']);
      findings.push({
        ...base,
        code: 'contract.content-type',
        title: `${operation} answered ${status} with a JSON body labelled ${shownMedia ?? '(no Content-Type)'}`,
        severity: 'warning',
        requirements: [this.fallback[api]],
        expected: `Content-Type ${mediaType}`,
        actual: response.headers['content-type'] ?? '(none)',
      });
    }
    const validate = media.validate;
    evaluated.add(this.fallback[api]);
    for (const id of media.schemaRequirements) evaluated.add(id);
    if (!validate || validate(body)) return findings;
    const schemaRoot = this.spec(api).deref(content[mediaType] && (content[mediaType] as Json).schema);
    for (const error of validate.errors ?? []) {
      findings.push(this.schemaFinding(api, operation, status, error, body, schemaRoot?.node, exchange));
    }
    return findings;
  }

  /**
   * What judging a status of an operation needs from the spec, worked out once per (operation,
   * status) and kept: every response the suite receives is validated, so the lookups must not be
   * repeated per response.
   */
  private statusPlan(api: ApiName, operation: string, status: number): StatusPlan {
    const cacheKey = `${api} ${operation} ${status}`;
    const cached = this.statusPlans.get(cacheKey);
    if (cached) return cached;
    const opReqs = this.operationRequirements(api, operation);
    const key = this.responseKeyFor(api, operation, status);
    const resp = key ? this.responseFor(api, operation, key) : undefined;
    const content = resp && isObject(resp.node.content) && Object.keys(resp.node.content).length > 0 ? resp.node.content : undefined;
    const plan: StatusPlan = {
      general: opReqs.length ? opReqs : [this.fallback[api]],
      key,
      content,
      responseRequirements: resp ? this.spec(api).nearestRequirement(resp.node) : [],
      media: new Map(),
    };
    this.statusPlans.set(cacheKey, plan);
    return plan;
  }

  /**
   * The documented media type a response is judged against (its own when documented, else the
   * first JSON one), its validator and requirements; undefined when the body is not judged here (a
   * documented non-JSON media type, or none documented as JSON). Kept per Content-Type seen.
   */
  private mediaPlan(api: ApiName, operation: string, plan: StatusPlan, actualMedia: string | undefined): MediaPlan | undefined {
    const mediaKey = actualMedia ?? '';
    if (plan.media.has(mediaKey)) return plan.media.get(mediaKey);
    const content = plan.content ?? {};
    const mediaTypes = Object.keys(content);
    const jsonDocumented = mediaTypes.filter((m) => isJsonMediaType(m));
    let mediaType = mediaTypes.find((m) => m === actualMedia);
    let result: MediaPlan | undefined;
    if (mediaType && !isJsonMediaType(mediaType)) {
      result = undefined; // a documented non-JSON body: not judged here
    } else {
      mediaType ??= jsonDocumented[0];
      result =
        mediaType === undefined || plan.key === undefined
          ? undefined
          : {
              mediaType,
              open: this.openBody(api, content[mediaType]),
              validate: this.validatorFor(api, operation, plan.key, mediaType),
              schemaRequirements: this.schemaRequirements(api, operation, plan.key, mediaType),
            };
    }
    // a target may send any Content-Type: only a bounded number are kept
    if (plan.media.size < 32) plan.media.set(mediaKey, result);
    return result;
  }

  private schemaFinding(api: ApiName, operation: string, status: number, error: ErrorObject, body: unknown, schemaRoot: Json | undefined, exchange: Exchange): Finding {
    const pointer = error.instancePath;
    const requirements = this.requirementsForError(api, error, schemaRoot, operation);
    const value = valueAt(body, pointer);
    let actual: string;
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required') actual = `property ${JSON.stringify(params.missingProperty)} absent`;
    else if (error.keyword === 'additionalProperties') actual = `extra property ${JSON.stringify(params.additionalProperty)}`;
    else actual = value === undefined ? '(absent)' : truncate(this.redactor.redactBody(JSON.stringify(value)));
    return {
      code: 'contract.schema',
      title: `${operation} → ${status}: response body ${pointer || '(root)'} ${error.message ?? 'does not match the spec'}`,
      severity: 'failure',
      requirements,
      expected: `${error.keyword} ${truncate(JSON.stringify(params))}`,
      actual,
      exchanges: [exchange],
      pointer,
    };
  }

  /**
   * The requirement of an ajv error: on a missing property, that property's own x-requirement; else
   * the failing node's; else the deepest x-requirement along the instance path from the response
   * schema (through `$ref`s); else the failing node's nearest ancestor; else the operation's; else
   * the API's fallback.
   */
  private requirementsForError(api: ApiName, error: ErrorObject, schemaRoot: Json | undefined, operation: string): RequirementId[] {
    const spec = this.spec(api);
    const parent = isObject(error.parentSchema) ? error.parentSchema : undefined;
    if (error.keyword === 'required' && parent && isObject(parent.properties)) {
      const missing = (error.params as { missingProperty?: string }).missingProperty;
      const prop = missing !== undefined ? spec.deref(parent.properties[missing]) : undefined;
      const raw = missing !== undefined ? parent.properties[missing] : undefined;
      const ids = [...requirementIds(isObject(raw) ? raw['x-requirement'] : undefined), ...requirementIds(prop?.node['x-requirement'])];
      if (ids.length) return [...new Set(ids)];
    }
    if (parent) {
      const own = requirementIds(parent['x-requirement']);
      if (own.length) return own;
    }
    if (schemaRoot) {
      const along = walkRequirements(spec, schemaRoot, error.instancePath);
      if (along.length) return along;
    }
    if (parent) {
      const nearest = spec.nearestRequirement(parent);
      if (nearest.length) return nearest;
    }
    const opReqs = this.operationRequirements(api, operation);
    return opReqs.length ? opReqs : [this.fallback[api]];
  }
}

/** Deepest x-requirement met walking a schema along an instance path (properties, items, $ref, allOf). */
function walkRequirements(spec: ApiSpec, root: Json, instancePath: string): RequirementId[] {
  let found: RequirementId[] = [];
  const visit = (node: unknown): Json | undefined => {
    if (!isObject(node)) return undefined;
    const own = requirementIds(node['x-requirement']);
    if (own.length) found = own;
    if (typeof node.$ref === 'string') {
      const target = spec.deref(node);
      if (target) return visit(target.node) ?? node;
    }
    return node;
  };
  let node = visit(root);
  for (const raw of instancePath.split('/').slice(1)) {
    if (!node) break;
    const key = unescapePointer(raw);
    const candidates: Json[] = [node];
    for (const k of ['allOf', 'anyOf', 'oneOf']) {
      const list = node[k];
      if (Array.isArray(list)) for (const b of list) {
        const d = spec.deref(b);
        if (d) candidates.push(d.node);
      }
    }
    let next: unknown;
    for (const c of candidates) {
      if (isObject(c.properties) && c.properties[key] !== undefined) next = c.properties[key];
      else if (/^\d+$/.test(key) && Array.isArray(c.prefixItems) && c.prefixItems[Number(key)] !== undefined) next = c.prefixItems[Number(key)];
      else if (/^\d+$/.test(key) && c.items !== undefined) next = c.items;
      else if (isObject(c.additionalProperties)) next = c.additionalProperties;
      if (next !== undefined) break;
    }
    node = visit(next);
  }
  return found;
}

function collectExtensionKeys(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) {
    for (const n of node) collectExtensionKeys(n, into);
  } else if (isObject(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith('x-')) into.add(k);
      collectExtensionKeys(v, into);
    }
  }
}

function collectFormats(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) {
    for (const n of node) collectFormats(n, into);
  } else if (isObject(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'format' && typeof v === 'string') into.add(v);
      else collectFormats(v, into);
    }
  }
}

function safePathname(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

const contractCache = new Map<string, Promise<Contract>>();

/** The process-wide contract for the default specs (or the given paths), loaded once. */
export function loadContract(options: Pick<ContractOptions, 'apis' | 'specPaths'> = {}): Promise<Contract> {
  const key = JSON.stringify([options.apis ?? null, options.specPaths ?? null]);
  let p = contractCache.get(key);
  if (!p) {
    p = Contract.load(options);
    p.catch(() => contractCache.delete(key));
    contractCache.set(key, p);
  }
  return p;
}
