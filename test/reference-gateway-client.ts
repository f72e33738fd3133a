/**
 * Plumbing for the reference gateway's own tests: start the gateway on an ephemeral loopback
 * port, talk to it with fetch, receive its webhooks. Independent of harness/ on purpose.
 */
import jsQRModule from 'jsqr';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGatewayApp, type GatewayApp } from '../reference/gateway/app.js';
import type { DeliveryOptions } from '../reference/gateway/webhook-delivery.js';
import { PNG } from 'pngjs';

type DecodeQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
/** jsqr is CommonJS: depending on the loader the default import is the function or its module. */
const jsQR: DecodeQr = ((jsQRModule as unknown as { default?: DecodeQr }).default ?? (jsQRModule as unknown as DecodeQr));

/** The text a base64 PNG QR code encodes, or undefined when none is found. */
export function decodeQrPng(base64Png: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(base64Png, 'base64'));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

export interface Reply {
  status: number;
  headers: Headers;
  /** the parsed JSON body ({} when empty); read nested fields with `pick` */
  body: Record<string, unknown>;
  text: string;
}

export interface RunningGateway {
  app: GatewayApp;
  baseUrl: string;
  close(): Promise<void>;
}

export async function startGateway(faults: string[] = [], options: { tokenTtlMs?: number; delivery?: Partial<DeliveryOptions> } = {}): Promise<RunningGateway> {
  const app = createGatewayApp({ faults: new Set(faults), tokenTtlMs: options.tokenTtlMs ?? 60_000, delivery: options.delivery ?? { retryDelaysMs: [] } });
  const server = createServer((req, res) => void app.handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await app.close();
    },
  };
}

export async function call(baseUrl: string, method: string, path: string, init: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = {};
  try {
    parsed = text === '' ? {} : JSON.parse(text);
  } catch {
    parsed = { unparsable: text };
  }
  return { status: response.status, headers: response.headers, body: parsed as Reply['body'], text };
}

export async function login(baseUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const reply = await call(baseUrl, 'POST', '/api/auth', {
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
  });
  if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${reply.text}`);
  return reply.body.token as string;
}

/** Tokens for the three credential pairs of a running gateway. */
export async function tokensOf(gateway: RunningGateway): Promise<{ sandbox: string; production: string; other: string }> {
  const c = gateway.app.credentials;
  const [sandbox, production, other] = await Promise.all([
    login(gateway.baseUrl, c.clientId, c.clientSecret),
    login(gateway.baseUrl, c.liveClientId, c.liveClientSecret),
    login(gateway.baseUrl, c.otherClientId, c.otherClientSecret),
  ]);
  return { sandbox, production, other };
}

/** A valid CPF (check digits correct). */
export const VALID_CPF = '52998224725';
/** A valid numeric CNPJ. */
export const VALID_CNPJ = '11222333000181';

export function chargeBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { amountInCents: 1050, customer: { documentType: 'cpf', document: VALID_CPF, name: 'Maria' }, ...overrides };
}

export function transferBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { pixKey: 'recebedor@example.com', amount: 500, ...overrides };
}

export function cardBody(overrides: Record<string, unknown> = {}, cardOverrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amountInCents: 2500,
    currency: 'USD',
    card: { token: 'ctoken_abc123', last4: '4242', brand: 'Visa', holderName: 'JOHN DOE', ...cardOverrides },
    customer: {
      name: 'John Doe',
      documentType: 'cpf',
      document: '',
      email: 'john@example.com',
      billingAddress: { street: 'Main St', number: '1', neighborhood: 'Center', city: 'Austin', state: 'TX', zipCode: '73301' },
    },
    ...overrides,
  };
}

export interface ReceivedCallback {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1:0 that answers 200 and records every request. */
export async function startReceiver(): Promise<{ url: string; received: ReceivedCallback[]; waitFor(count: number, predicate?: (c: ReceivedCallback) => boolean, timeoutMs?: number): Promise<ReceivedCallback[]>; close(): Promise<void> }> {
  const received: ReceivedCallback[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    async waitFor(count, predicate = () => true, timeoutMs = 3_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter(predicate);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline) throw new Error(`receiver: expected ${count} callbacks, got ${matching.length}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** The value at a dotted path (`data.pix.emv`, `data.0.id`) of a parsed JSON value. */
export function pick(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const part of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Like `pick`, for a value that must be a string. */
export function pickString(value: unknown, path: string): string {
  const found = pick(value, path);
  if (typeof found !== 'string') throw new Error(`expected a string at ${path}, got ${JSON.stringify(found)}`);
  return found;
}

/** Polls `probe` until it returns true or the bound passes. */
export async function eventually(probe: () => boolean | Promise<boolean>, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('eventually: condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
