import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueFiles, loadRequirements, parseRequirements } from '../harness/contract/requirements.js';
import { defaultSpecPath, loadSpec } from '../harness/contract/spec.js';
import { parseSpecText, parsedSpecCacheName, specDocument } from '../harness/rules/spec-document.js';
import { readFileSync } from 'node:fs';
import type { OpenApiDocument } from '../harness/contract/spec.js';
import { Contract, generateValidatorsCode } from '../harness/contract/validator.js';
import type { Exchange } from '../harness/core/exchange.js';
import type { ApiName } from '../harness/http/client.js';
import { Redactor } from '../harness/http/redact.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

let dir: string;
const previous = process.env['PAYGATE_CACHE_DIR'];
const documents: Partial<Record<ApiName, OpenApiDocument>> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-contract-cache-'));
  process.env['PAYGATE_CACHE_DIR'] = dir;
  documents.gateway = await loadSpec('gateway');
  documents.partner = await loadSpec('partner');
});

afterAll(() => {
  if (previous === undefined) delete process.env['PAYGATE_CACHE_DIR'];
  else process.env['PAYGATE_CACHE_DIR'] = previous;
  rmSync(dir, { recursive: true, force: true });
});

/** A local `$ref` of a document resolved. */
function deref(doc: Json, node: unknown): unknown {
  for (let i = 0; i < 20 && isObject(node) && typeof node.$ref === 'string'; i++) {
    let at: unknown = doc;
    for (const raw of node.$ref.replace(/^#\/?/, '').split('/')) at = isObject(at) ? at[raw.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    node = at;
  }
  return node;
}

/** A body shaped like the schema (required and optional properties, first enum value, first branch): near-valid, so nested keywords run. */
function skeleton(doc: Json, schema: unknown, depth = 0): unknown {
  const s = deref(doc, schema);
  if (!isObject(s) || depth > 8) return null;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  for (const k of ['allOf', 'oneOf', 'anyOf']) {
    const list = s[k];
    if (Array.isArray(list) && list.length > 0) {
      const parts = (k === 'allOf' ? list : [list[0]]).map((b) => skeleton(doc, b, depth + 1));
      return parts.every(isObject) ? Object.assign({}, ...parts) : parts[0];
    }
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'object' || isObject(s.properties)) {
    const out: Json = {};
    for (const [k, v] of Object.entries(isObject(s.properties) ? s.properties : {})) out[k] = skeleton(doc, v, depth + 1);
    return out;
  }
  if (type === 'array') return [skeleton(doc, s.items, depth + 1)];
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  return 'x';
}

/** The same value with every leaf of one kind swapped (strings to numbers, numbers to strings…). */
function twisted(value: unknown): unknown {
  if (Array.isArray(value)) return [...value.map(twisted), 'extra'];
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v], i) => [k, i % 2 === 0 ? twisted(v) : v]));
  if (typeof value === 'string') return 42;
  if (typeof value === 'number') return '42';
  if (typeof value === 'boolean') return 'yes';
  return {};
}

function exchange(api: ApiName, operation: string, status: number, body: unknown): Exchange {
  const [method = 'GET', path = '/'] = operation.split(' ');
  const text = JSON.stringify(body);
  return {
    seq: 1,
    api,
    operation,
    request: { method, url: `http://127.0.0.1:1${path}`, path, headers: {} },
    response: { status, headers: { 'content-type': 'application/json' }, body: text, json: body },
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    curl: 'curl',
  };
}

describe('precompiled validators (harness/contract/cache.ts)', () => {
  it('give the same facts as validators compiled in process, on near-valid, twisted and random bodies of every documented response', async () => {
    const fresh = await Contract.load({ documents, precompiled: false, redactor: new Redactor() });
    const cached = await Contract.load({ documents, redactor: new Redactor() });
    const bodies = cached.compileAll();
    expect(bodies.length).toBeGreaterThan(50);
    // the first load generated the code and cached it; a second contract reads it
    expect(readdirSync(dir).some((f) => f.startsWith('validators-'))).toBe(true);
    const reread = await Contract.load({ documents, redactor: new Redactor() });
    const random = fc.sample(fc.jsonValue({ maxDepth: 3 }), { numRuns: 12, seed: 29 });
    let errors = 0;
    for (const { api, operation, status, mediaType } of bodies) {
      if (mediaType !== 'application/json') continue;
      const code = /^\d{3}$/.test(status) ? Number(status) : status.toUpperCase().endsWith('XX') ? Number(status[0]) * 100 + 99 : 599;
      const doc = documents[api] as Json;
      const op = deref(doc, (deref(doc, (doc.paths as Json)[operation.slice(operation.indexOf(' ') + 1)]) as Json)[operation.split(' ')[0]?.toLowerCase() ?? 'get']) as Json;
      const response = deref(doc, (op.responses as Json)[status]) as Json;
      const schema = ((response.content as Json)[mediaType] as Json).schema;
      const near = skeleton(doc, schema);
      for (const body of [near, twisted(near), {}, [], null, 0, 'text', { success: true, data: near }, ...random]) {
        const a = fresh.responseFacts(exchange(api, operation, code, body));
        const b = cached.responseFacts(exchange(api, operation, code, body));
        const c = reread.responseFacts(exchange(api, operation, code, body));
        const strip = (f: typeof a): unknown => (f ? { ...f, exchange: undefined } : f);
        expect(strip(b), `${api} ${operation} ${status}: ${JSON.stringify(body)}`).toEqual(strip(a));
        expect(strip(c)).toEqual(strip(a));
        errors += a?.response?.body?.schemaErrors.length ?? 0;
        // the errors point into the documents themselves (the requirement lookups go by identity)
        const va = fresh.responseValidator(api, operation, code, mediaType);
        const vb = cached.responseValidator(api, operation, code, mediaType);
        if (va && vb && !va(body) && !vb(body)) {
          expect(vb.errors?.length).toBe(va.errors?.length);
          (va.errors ?? []).forEach((e, i) => {
            expect(vb.errors?.[i]?.parentSchema).toBe(e.parentSchema);
            if (typeof e.schema === 'object') expect(vb.errors?.[i]?.schema).toBe(e.schema);
          });
        }
      }
    }
    // the samples reach many schema errors, each with its requirement
    expect(errors).toBeGreaterThan(500);
  });

  it('name every schema object of the documents by its place, never as a copy', () => {
    const code = generateValidatorsCode(documents);
    expect(code).toContain('N("gateway#/components/schemas/');
    // the documents themselves are not written into the code
    expect(code.length).toBeLessThan(JSON.stringify(documents).length * 6);
  });
});

describe('cached requirement catalogue', () => {
  it('is the parsed catalogue, unchanged by a round trip through JSON', () => {
    const parsed = parseRequirements(catalogueFiles().map((path) => ({ name: path, text: readFileSync(path, 'utf8') })));
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(parsed);
    expect(loadRequirements()).toEqual(parsed);
  });
});

describe('cached parsed spec documents (harness/rules/spec-document.ts)', () => {
  it('are the YAML parser\'s documents, written once and read back equal', () => {
    for (const api of ['gateway', 'partner'] as const) {
      const text = readFileSync(defaultSpecPath(api), 'utf8');
      const parsed = parseSpecText(text);
      const name = parsedSpecCacheName(api, text);
      rmSync(join(dir, name), { force: true });
      // the first reading parses and writes the cache (the module keeps one document per process,
      // so the cache is read here as a later process reads it)
      const written = specDocument(api);
      expect(written).toEqual(parsed);
      expect(readdirSync(dir)).toContain(name);
      expect(JSON.parse(readFileSync(join(dir, name), 'utf8'))).toStrictEqual(parsed);
      // a changed spec text is another file
      expect(parsedSpecCacheName(api, `${text}\n# changed`)).not.toBe(name);
    }
  });
});
