/**
 * A recording reverse proxy for the safety tests: sits between the suite and a target, forwards
 * every request unchanged and logs what went through — method, path, the credential used, status —
 * independently of the harness's own recording (which is what is under test).
 *
 * It learns which Bearer tokens the target issued (`POST /api/auth` answers with a `token`) and for
 * which client id (the Basic credential of that request), and every secret-looking JSON value the
 * target returned (`token`, `signatureSecret`, `secret`…), so a test can look for them in reports.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** path and query as received */
  path: string;
  /** the client id of the Basic credential, or of the pair a Bearer token was issued to */
  clientId?: string;
  /** `basic`, `bearer-issued` (a token the target issued), `bearer-unknown`, `other`, or `none` */
  credential: 'basic' | 'bearer-issued' | 'bearer-unknown' | 'other' | 'none';
  status: number;
  /** the request body was the empty JSON object `{}` (no field at all: no amount, no destination) */
}

export interface RecordingProxy {
  url: string;
  log: ProxiedRequest[];
  /** every token/secret value seen in the target's JSON answers */
  issuedSecrets(): string[];
  close(): Promise<void>;
}

const SECRET_KEYS = /^(token|accesstoken|secret|signaturesecret|webhooksecret|clientsecret|apikey)$/i;

function collectSecrets(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectSecrets(item, into);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (typeof inner === 'string' && SECRET_KEYS.test(key.replace(/[_-]/g, '')) && inner.length >= 6) into.add(inner);
    else collectSecrets(inner, into);
  }
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function basicClientId(header: string): string | undefined {
  const m = /^Basic\s+(\S+)$/i.exec(header);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : undefined;
}

/** Starts a proxy on 127.0.0.1 forwarding to `target` (an origin, e.g. http://127.0.0.1:1234). */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const origin = new URL(target);
  const log: ProxiedRequest[] = [];
  const tokens = new Map<string, string>(); // token → client id
  const secrets = new Set<string>();
  const sockets = new Set<Socket>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readAll(req);
    const authorization = req.headers.authorization ?? '';
    const headers: IncomingHttpHeaders = { ...req.headers, host: origin.host };
    const upstream = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const forward = httpRequest(
        { hostname: origin.hostname, port: origin.port, method: req.method, path: req.url, headers },
        (answer) => {
          readAll(answer).then((data) => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: data }), reject);
        },
      );
      forward.on('error', reject);
      forward.end(body);
    });
    let parsed: unknown;
    try {
      parsed = JSON.parse(upstream.body.toString('utf8'));
    } catch {
      parsed = undefined;
    }
    collectSecrets(parsed, secrets);
    const path = req.url ?? '/';
    let entry: ProxiedRequest;
    if (/^Basic\s/i.test(authorization)) {
      const clientId = basicClientId(authorization);
      entry = { method: req.method ?? '', path, credential: 'basic', status: upstream.status, ...(clientId !== undefined && { clientId }) };
      const token = (parsed as { token?: unknown } | undefined)?.token;
      if (path.split('?')[0] === '/api/auth' && typeof token === 'string' && clientId !== undefined) tokens.set(token, clientId);
    } else if (/^Bearer\s/i.test(authorization)) {
      const clientId = tokens.get(authorization.replace(/^Bearer\s+/i, ''));
      entry = { method: req.method ?? '', path, credential: clientId !== undefined ? 'bearer-issued' : 'bearer-unknown', status: upstream.status, ...(clientId !== undefined && { clientId }) };
    } else {
      entry = { method: req.method ?? '', path, credential: authorization === '' ? 'none' : 'other', status: upstream.status };
    }
    log.push(entry);
    const out = { ...upstream.headers };
    delete out['transfer-encoding'];
    out['content-length'] = String(upstream.body.length);
    res.writeHead(upstream.status, out);
    res.end(upstream.body);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    issuedSecrets: () => [...secrets, ...tokens.keys()],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
