/**
 * The OpenAPI specs as facts about responses (ajv, JSON Schema 2020-12). Judging them is the
 * contract rules' (harness/rules/contract.ts): this module says what a response is in the spec's
 * terms, never whether that conforms.
 *
 * Each bundled document is registered once in ajv under a URN `$id` (`urn:paygate:gateway`,
 * `urn:paygate:partner`) so internal `$ref`s stay intact; a validator is compiled lazily once per
 * (operation, status key, media type) from `{ $ref: 'urn:paygate:<api>#/paths/…/schema' }`.
 *
 * {@link Contract.responseFacts} gives, for one exchange: the operation it matched and the
 * requirements that operation names (`x-requirement`), the documented response its status falls
 * under (exact, range, `default`) with its own requirements, the media type documented and the one
 * received, whether the body parsed as JSON, and each ajv error (`allErrors`) located by its
 * instance path and schema path, with the `x-requirement` of the failing schema node (or the
 * nearest one along the path). Undocumented response parts are open: nothing is invented beyond the
 * spec. Values shown in the facts are redacted.
 */
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type * as Ajv2020Module from 'ajv/dist/2020.js';
import { cacheKey, readCached, writeCached } from './cache.js';
import type { Exchange } from '../core/exchange.js';
import type { RequirementId } from '../core/requirement-ids.js';
import { HarnessError } from '../core/errors.js';
import type { ApiName } from '../http/client.js';
import { defaultRedactor } from '../http/redact.js';
import type { Redactor } from '../http/redact.js';
import { loadSpec } from './spec.js';
import type { OpenApiDocument } from './spec.js';

type AddFormats = (ajv: Ajv2020) => Ajv2020;
type StandaloneCode = (ajv: Ajv2020, refs: Record<string, string>) => string;
interface AjvLibrary {
  Ajv2020: typeof Ajv2020Module.Ajv2020;
  _: typeof Ajv2020Module._;
  addFormats: AddFormats;
  standaloneCode: StandaloneCode;
}
let ajvLibrary: AjvLibrary | undefined;

/**
 * ajv's compiler, loaded on first use: the precompiled validators (the usual case) need only the
 * small runtime modules their code requires, and importing the compiler cost every test worker
 * ~0.1 s of CPU before its first check.
 */
function ajvLib(): AjvLibrary {
  if (ajvLibrary === undefined) {
    const require = createRequire(import.meta.url);
    // CommonJS modules: the function may be the module itself or its `default`
    const fn = <T>(mod: unknown): T => ((mod as { default?: T }).default ?? mod) as T;
    const core = require('ajv/dist/2020.js') as typeof Ajv2020Module;
    ajvLibrary = {
      Ajv2020: core.Ajv2020,
      _: core._,
      addFormats: fn<AddFormats>(require('ajv-formats')),
      standaloneCode: fn<StandaloneCode>(require('ajv/dist/standalone/index.js')),
    };
  }
  return ajvLibrary;
}

/**
 * The requirement of each document that every response is under when no node of the spec names
 * one: gateway "All bodies are JSON.", partner "Bodies are JSON." (the "Endpoints" sections).
 */
export const DOCUMENT_REQUIREMENTS: Record<ApiName, RequirementId> = {
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
  /**
   * use the validators generated once and cached (harness/contract/cache.ts; default true); false
   * compiles each with ajv in this process (the two give the same verdicts: test/contract-cache.test.ts)
   */
  precompiled?: boolean;
}

/** Raw (unredacted) response data to validate instead of the recorded, redacted one. */
export interface RawResponse {
  json?: unknown;
  text?: string;
  /** response headers as received (names lower-case); only the Content-Type is read */
  headers?: Record<string, string>;
  /** the client sends the request again after this answer (a 429 with retries left) */
  retried?: boolean;
}

/** One response in the spec's terms: what the contract rules judge (harness/rules/contract.ts). */
export interface ResponseFacts {
  exchange: Exchange;
  api: ApiName;
  /** the spec operation the request matched, `METHOD template` */
  operation: string;
  status: number;
  /** the client sends the request again after this answer (a 429 with retries left): not the answer the check got */
  retried: boolean;
  /** the operation's own `x-requirement` */
  operationRequirements: readonly RequirementId[];
  /** the document's requirement for every response ({@link DOCUMENT_REQUIREMENTS}) */
  documentRequirement: RequirementId;
  /** the response keys the operation documents (`200`, `2XX`, `default`, …) */
  documentedStatuses: readonly string[];
  /** the documented response the status falls under; absent when the operation documents none for it */
  response?: DocumentedResponse;
}

export interface DocumentedResponse {
  /** its key: exact status, then range (`2XX`), then `default` */
  key: string;
  /** `x-requirement` of the response node or its nearest ancestor */
  requirements: readonly RequirementId[];
  /** the documented JSON body and what came; absent when the response documents none (or only a non-JSON media type) */
  body?: BodyFacts;
}

export interface BodyFacts {
  /** the documented media type the body is judged against (its own when documented, else the first JSON one) */
  mediaType: string;
  /** the media type of the Content-Type received (lower-case, no parameters); undefined when none */
  receivedMediaType: string | undefined;
  /** the Content-Type header as recorded (redacted), undefined when none; the record's headers are redacted when first read */
  readonly contentType: string | undefined;
  /** `x-body` of the schema: `optional` (may be absent), `any` (anything at all) */
  open: 'optional' | 'any' | undefined;
  /** the body text is empty or only whitespace */
  empty: boolean;
  /** the body parsed as JSON */
  parsed: boolean;
  /**
   * the body text, redacted and cut for display; redacted when first read (only a finding about
   * the body shows it: most responses never need the scan of their text for every secret)
   */
  readonly shown: string;
  /**
   * the parse that was validated: the caller's own parse of the raw body when it handed one (not
   * redacted: a rule may read values from it to decide or to cover cells, and shows only `shown`,
   * its findings' values and the recorded exchange); undefined when the body did not parse
   */
  readonly json: unknown;
  /** a schema is documented and the parsed body was validated against it */
  validated: boolean;
  /** every `x-requirement` of the response and its schema (through `$ref`s) */
  schemaRequirements: readonly RequirementId[];
  /** ajv's errors (empty when the body matches or was not validated) */
  schemaErrors: readonly SchemaError[];
}

/** One ajv error, located. */
export interface SchemaError {
  /** JSON pointer into the body */
  instancePath: string;
  /** where in the schema it failed (ajv's `schemaPath`) */
  schemaPath: string;
  keyword: string;
  message: string | undefined;
  params: Record<string, unknown>;
  /** the `x-requirement` of the failing node (a missing property's own), else the nearest along the path, else the operation's, else the document's */
  requirements: readonly RequirementId[];
  /** the value at the pointer, redacted and cut for display (`(absent)` when none) */
  shown: string;
}

type Json = Record<string, unknown>;

/** See Contract.statusPlan. */
interface StatusPlan {
  /** the operation's own requirements */
  readonly operationRequirements: readonly RequirementId[];
  /** the response keys the operation documents */
  readonly documentedStatuses: readonly string[];
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

/** `application/json` or a `+json` suffix. */
export function isJsonMediaType(mediaType: string | undefined): boolean {
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

/** Fresh-compile keywords and formats: the documents registered under their URNs. `source`: keep the code (standalone). */
function createAjv(documents: Partial<Record<ApiName, Json>>, specs: Map<ApiName, ApiSpec>, source: boolean): Ajv2020 {
    const { Ajv2020, addFormats } = ajvLib();
    const ajv = new Ajv2020({
      allErrors: true,
      verbose: true,
      strict: true,
      strictTypes: false,
      strictTuples: false,
      strictRequired: false,
      allowUnionTypes: true,
      validateFormats: true,
      ...(source && { code: { source: true } }),
    });
    addFormats(ajv);
    // OpenAPI formats without a JSON Schema meaning: annotations only
    for (const f of ['int32', 'int64', 'float', 'double', 'password', 'binary']) ajv.addFormat(f, true);
    // any other format the specs name but ajv-formats does not know stays an annotation
    const formats = new Set<string>();
    for (const doc of Object.values(documents)) collectFormats(doc, formats);
    for (const f of formats) if (!ajv.formats[f]) ajv.addFormat(f, true);
    const keywords = new Set(['example', 'discriminator', 'xml', 'externalDocs', 'x-requirement', 'x-body']);
    // root keys of an OpenAPI document: ajv compiles the registered root when resolving into it
    for (const k of ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags']) keywords.add(k);
    for (const doc of Object.values(documents)) collectExtensionKeys(doc, keywords);
    for (const k of keywords) if (!ajv.getKeyword(k)) ajv.addKeyword(k);
    for (const [api, doc] of Object.entries(documents) as [ApiName, Json][]) {
      const spec = specs.get(api);
      if (!spec) continue;
      const { $schema: _ignored, ...rest } = doc;
      // shallow copy: nested nodes keep their identity (ajv's parentSchema → our parent index)
      ajv.addSchema({ ...rest, $id: spec.urn });
    }
    return ajv;
}

/** The `$ref` a response body's validator is compiled from. */
function responseSchemaRef(urn: string, responsePointer: string, mediaType: string): string {
  return `${urn}#${responsePointer.replace(/^#/, '')}/content/${escapePointer(mediaType)}/schema`;
}

/** The validator key of a documented response body: `api operation key mediaType`. */
function validatorKey(api: ApiName, operation: string, key: string, mediaType: string): string {
  return `${api} ${operation} ${key} ${mediaType}`;
}

/** The cache file of the generated validators of these documents. */
export function validatorsCacheName(documents: Partial<Record<ApiName, Json>>): string {
  const apis = (Object.keys(documents) as ApiName[]).sort();
  return `validators-${apis.join('-')}-${cacheKey(apis.map((api) => JSON.stringify(documents[api])), ['ajv', 'ajv-formats'])}.js`;
}

interface ScopeName {
  value?: { ref: unknown; code?: unknown };
}

/**
 * ajv standalone code for every documented response body of the documents: a function body of
 * (N, require, exports) that fills `exports[validatorKey]`. Every schema object the code holds
 * (what an error reports as `schema`/`parentSchema`) is written as `N("api#pointer")`, the node of
 * the document the code is loaded with, instead of a copy: the requirement lookups go by identity.
 */
export function generateValidatorsCode(documents: Partial<Record<ApiName, Json>>): string {
  const specs = new Map<ApiName, ApiSpec>();
  for (const [api, doc] of Object.entries(documents) as [ApiName, Json][]) specs.set(api, new ApiSpec(api, doc));
  const ajv = createAjv(documents, specs, true);
  const { _, standaloneCode } = ajvLib();
  const refs: Record<string, string> = {};
  let n = 0;
  for (const [api, spec] of specs) {
    for (const { operation, key, mediaType, pointer } of documentedBodies(spec)) {
      const id = `urn:paygate:validator:${n++}`;
      ajv.addSchema({ $ref: responseSchemaRef(spec.urn, pointer, mediaType) }, id);
      ajv.getSchema(id);
      refs[validatorKey(api, operation, key, mediaType)] = id;
    }
  }
  // every object of the documents by its place (the registered roots are copies: named apart)
  const places = new Map<unknown, string>();
  const index = (node: unknown, place: string): void => {
    if (typeof node !== 'object' || node === null || places.has(node)) return;
    places.set(node, place);
    if (Array.isArray(node)) node.forEach((child, i) => index(child, `${place}/${i}`));
    else for (const [k, child] of Object.entries(node)) index(child, `${place}/${escapePointer(k)}`);
  };
  for (const [api, doc] of Object.entries(documents) as [ApiName, Json][]) index(doc, `${api}#`);
  const scope = (ajv as unknown as { scope: { _values: Record<string, Map<unknown, ScopeName> | undefined> } }).scope;
  for (const name of scope._values['schema']?.values() ?? []) {
    const ref = name.value?.ref;
    if (ref === undefined || name.value === undefined) continue;
    let place = places.get(ref);
    if (place === undefined && typeof ref === 'object' && ref !== null && typeof (ref as Json)['$id'] === 'string') {
      const api = [...specs.values()].find((s) => s.urn === (ref as Json)['$id'])?.api;
      if (api !== undefined) place = `${api}#`;
    }
    if (place !== undefined) name.value.code = _`N(${place})`;
  }
  return standaloneCode(ajv, refs);
}

/** Runs generated validator code; `nodeAt` gives the document node of an `api#pointer`. */
function loadValidatorsCode(code: string, nodeAt: (key: string) => unknown): Record<string, ValidateFunction> {
  const exports: Record<string, ValidateFunction> = {};
  // the code is ours (generateValidatorsCode), read from the cache this package writes
  const run = new Function('N', 'require', 'exports', code) as (n: typeof nodeAt, r: NodeJS.Require, e: typeof exports) => void;
  run(nodeAt, createRequire(import.meta.url), exports);
  return exports;
}

/** Every documented response body of a spec: (operation, response key, media type, response pointer). */
function documentedBodies(spec: ApiSpec): { operation: string; key: string; mediaType: string; pointer: string }[] {
  const out: { operation: string; key: string; mediaType: string; pointer: string }[] = [];
  for (const op of spec.operations) {
    const responses = isObject(op.node.responses) ? op.node.responses : {};
    for (const key of Object.keys(responses)) {
      const response = spec.deref(responses[key], `${op.pointer}/responses/${escapePointer(key)}`);
      const content = response && isObject(response.node.content) ? response.node.content : {};
      for (const mediaType of Object.keys(content)) {
        const media = content[mediaType];
        if (response && isObject(media) && media.schema !== undefined) out.push({ operation: op.match.operation, key, mediaType, pointer: response.pointer });
      }
    }
  }
  return out;
}

export class Contract {
  private readonly specs = new Map<ApiName, ApiSpec>();
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly schemaRequirementCache = new Map<string, readonly RequirementId[]>();
  private readonly statusPlans = new Map<string, StatusPlan>();
  private readonly redactor: Redactor;

  private constructor(documents: Partial<Record<ApiName, Json>>, options: ContractOptions) {
    this.redactor = options.redactor ?? defaultRedactor;
    this.documents = documents;
    this.usePrecompiled = options.precompiled !== false;
    for (const [api, doc] of Object.entries(documents) as [ApiName, Json][]) this.specs.set(api, new ApiSpec(api, doc));
  }

  private readonly documents: Partial<Record<ApiName, Json>>;
  private readonly usePrecompiled: boolean;
  private ajvInstance: Ajv2020 | undefined;
  /** the validators of every documented response (ajv standalone code, see {@link precompiledValidators}); null: none */
  private precompiled: Record<string, ValidateFunction> | null | undefined;

  /** The ajv instance with both documents registered, built on first use (not at all when the precompiled validators serve). */
  private get ajv(): Ajv2020 {
    this.ajvInstance ??= createAjv(this.documents, this.specs, false);
    return this.ajvInstance;
  }

  /**
   * The validators of every documented response, from the cache (harness/contract/cache.ts) by a
   * hash of the bundled documents and the ajv versions; generated and cached when absent. The
   * code is ajv's own (standalone) with the schema objects it reports (`schema`, `parentSchema`
   * of an error) taken from this contract's documents, so an error's requirement is found through
   * the same nodes as with a freshly compiled validator.
   */
  private precompiledValidators(): Record<string, ValidateFunction> | null {
    if (this.precompiled !== undefined) return this.precompiled;
    this.precompiled = null;
    if (!this.usePrecompiled) return null;
    const name = validatorsCacheName(this.documents);
    let code = readCached(name);
    if (code === undefined) {
      code = generateValidatorsCode(this.documents);
      writeCached(name, code);
    }
    try {
      this.precompiled = loadValidatorsCode(code, (key) => this.nodeAt(key));
    } catch {
      this.precompiled = null;
    }
    return this.precompiled;
  }

  /** A node of a document by its key in the generated code (`gateway#/components/…`). */
  private nodeAt(key: string): unknown {
    const hash = key.indexOf('#');
    const spec = this.specs.get(key.slice(0, hash) as ApiName);
    if (!spec) throw new HarnessError('contract.precompiled', `no spec for ${key}`);
    return spec.resolvePointer(key.slice(hash));
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
    const cacheKey = validatorKey(api, operation, key, mediaType);
    const cached = this.validators.get(cacheKey);
    if (cached) return cached;
    const response = this.responseFor(api, operation, key);
    const content = response && isObject(response.node.content) ? response.node.content : undefined;
    const media = content?.[mediaType];
    if (!response || !isObject(media) || media.schema === undefined) return undefined;
    const precompiled = this.precompiledValidators()?.[cacheKey];
    if (precompiled) {
      this.validators.set(cacheKey, precompiled);
      return precompiled;
    }
    let validate: ValidateFunction;
    try {
      validate = this.ajv.compile({ $ref: responseSchemaRef(this.spec(api).urn, response.pointer, mediaType) });
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

  /**
   * One response in the spec's terms (see the module comment). `raw` carries the unredacted parse
   * (from HttpResult), so redaction never causes a schema error; values shown are redacted again.
   * Undefined for an exchange without a response, of an API without a spec, or matching no
   * documented operation: nothing about it is in the spec.
   */
  responseFacts(exchange: Exchange, raw?: RawResponse): ResponseFacts | undefined {
    const response = exchange.response;
    if (!response || !this.specs.has(exchange.api)) return undefined;
    const api = exchange.api;
    let operation = exchange.operation;
    if (!operation || !this.findOperation(api, operation)) {
      const path = exchange.request.path ?? safePathname(exchange.request.url);
      operation = this.matchOperation(api, exchange.request.method, path)?.operation;
    }
    if (!operation) return undefined;
    const status = response.status;
    const plan = this.statusPlan(api, operation, status);
    const facts: ResponseFacts = {
      exchange,
      api,
      operation,
      status,
      retried: raw?.retried === true,
      operationRequirements: plan.operationRequirements,
      documentRequirement: DOCUMENT_REQUIREMENTS[api],
      documentedStatuses: plan.documentedStatuses,
    };
    if (plan.key === undefined) return facts;
    const documented: DocumentedResponse = { key: plan.key, requirements: plan.responseRequirements };
    facts.response = documented;
    if (!plan.content) return facts;
    // the raw Content-Type when the caller has it: the recorded headers are redacted on first read
    const receivedMediaType = mediaTypeOf((raw?.headers ?? response.headers)['content-type']);
    const media = this.mediaPlan(api, operation, plan, receivedMediaType);
    if (!media) return facts;

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
    const parsed = body !== undefined;
    const validate = parsed ? media.validate : undefined;
    const valid = validate ? validate(body) : true;
    const schemaRoot = validate && !valid ? this.spec(api).deref(isObject(plan.content[media.mediaType]) ? (plan.content[media.mediaType] as Json).schema : undefined) : undefined;
    const redactor = this.redactor;
    let shown: string | undefined;
    documented.body = {
      mediaType: media.mediaType,
      receivedMediaType,
      // as recorded (redacted), read only by a finding that shows it
      get contentType(): string | undefined {
        return response.headers['content-type'];
      },
      open: media.open,
      empty: text.trim() === '',
      parsed,
      get shown(): string {
        return (shown ??= truncate(redactor.redactText(text)));
      },
      json: body,
      validated: validate !== undefined,
      schemaRequirements: media.schemaRequirements,
      schemaErrors: valid ? [] : (validate?.errors ?? []).map((error) => this.schemaError(api, operation, error, body, schemaRoot?.node)),
    };
    return facts;
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
    const key = this.responseKeyFor(api, operation, status);
    const resp = key ? this.responseFor(api, operation, key) : undefined;
    const content = resp && isObject(resp.node.content) && Object.keys(resp.node.content).length > 0 ? resp.node.content : undefined;
    const plan: StatusPlan = {
      operationRequirements: this.operationRequirements(api, operation),
      documentedStatuses: this.documentedStatuses(api, operation),
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

  private schemaError(api: ApiName, operation: string, error: ErrorObject, body: unknown, schemaRoot: Json | undefined): SchemaError {
    const params = error.params as Record<string, unknown>;
    const value = valueAt(body, error.instancePath);
    return {
      instancePath: error.instancePath,
      schemaPath: error.schemaPath,
      keyword: error.keyword,
      message: error.message,
      params,
      requirements: this.requirementsForError(api, error, schemaRoot, operation),
      shown: value === undefined ? '(absent)' : truncate(this.redactor.redactBody(JSON.stringify(value))),
    };
  }

  /**
   * The requirement of an ajv error: on a missing property, that property's own x-requirement; else
   * the failing node's; else the deepest x-requirement along the instance path from the response
   * schema (through `$ref`s); else the failing node's nearest ancestor; else the operation's; else
   * the document's.
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
    return opReqs.length ? opReqs : [DOCUMENT_REQUIREMENTS[api]];
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
