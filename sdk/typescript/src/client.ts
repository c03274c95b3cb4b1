// The client: signed requests over fetch, proxy-user headers, typed errors, retries, pages.
import { ModhubError, parseRetryAfterSeconds } from "./errors.js";
import { CONTRACT_VERSION, OPERATIONS, type OperationInfo } from "./generated/operations.js";
import { backoffDelayMs, retryPolicy, sleep, type RetryOptions, type RetryPolicy } from "./retry.js";
import { MonotonicClock, Signer } from "./signing.js";
import type {
  ApiResult, CallOptions, DataOf, HttpMethod, InitArgs, ItemOf, Operation, Page, PagedPaths,
  PathsWith, ProxyUser,
} from "./types.js";

/** How to reach and authenticate against a modhub server. */
export interface ClientOptions {
  /** Root of the server, e.g. `http://127.0.0.1:8000` (paths start with /openapi). */
  baseUrl: string;
  /** The application's API key and secret key (not needed for anonymous operations only). */
  apiKey?: string;
  secretKey?: string;
  /** The proxy user sent on every call (a call may override it). */
  proxy?: ProxyUser;
  /** Retries on 429 and 503 (`false`: none). */
  retry?: RetryOptions | false;
  /** The fetch to use (default: globalThis.fetch). */
  fetch?: typeof fetch;
  /** Headers sent on every request (e.g. a User-Agent where the platform allows it). */
  headers?: Record<string, string>;
  /** The wall clock in ms (tests); timestamps stay strictly increasing whatever it says. */
  now?: () => number;
}

/** Everything a low-level request takes. */
export interface RequestOptions extends CallOptions {
  /** Values for the `{name}` placeholders of the path template. */
  path?: Record<string, string | number | bigint>;
  /** Query parameters; arrays repeat the name, undefined and null are left out. */
  query?: object;
  /** A JSON value (sent as application/json) or a body fetch accepts as it is. */
  body?: unknown;
  /** Send the signature headers (default: unless the operation is anonymous). */
  signed?: boolean;
  /** fetch's redirect mode (default "follow"). */
  redirect?: RequestRedirect;
}

const OPERATION_INDEX = new Map<string, OperationInfo>(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op]));
const RAW_BODY = (body: unknown): body is BodyInit =>
  typeof body === "string" || body instanceof ArrayBuffer || ArrayBuffer.isView(body) ||
  (typeof Blob !== "undefined" && body instanceof Blob) ||
  (typeof FormData !== "undefined" && body instanceof FormData) ||
  (typeof URLSearchParams !== "undefined" && body instanceof URLSearchParams) ||
  (typeof ReadableStream !== "undefined" && body instanceof ReadableStream);

/** The operation of the contract for a method and path template, if there is one. */
export function findOperation(method: string, pathTemplate: string): OperationInfo | undefined {
  return OPERATION_INDEX.get(`${method.toUpperCase()} ${pathTemplate}`);
}

/** Fill the `{name}` placeholders of a path template (each value percent-encoded). */
export function expandPath(template: string, params: Record<string, string | number | bigint> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new TypeError(`path parameter ${name} is missing for ${template}`);
    return encodeURIComponent(String(value));
  });
}

function queryString(query: object | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== undefined && one !== null) search.append(name, String(one));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

function proxyHeaders(proxy: ProxyUser | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (proxy?.userId !== undefined) {
    const id = String(proxy.userId);
    if (!/^\d{1,19}$/.test(id)) throw new TypeError("proxy userId must be ASCII digits (an int64 user id)");
    headers["X-Proxy-User-Id"] = id;
  }
  if (proxy?.accessToken !== undefined) headers["X-Proxy-Access-Token"] = proxy.accessToken;
  return headers;
}

/** The parts two clients of one application share: the key, the clock, fetch and the policy. */
interface Shared {
  baseUrl: string;
  apiKey?: string;
  signer?: Signer;
  clock: MonotonicClock;
  fetch: typeof fetch;
  retry: RetryPolicy;
  headers: Record<string, string>;
}

/** A modhub Open API client (one per application; `asUser` derives one per proxy user). */
export class ModhubClient {
  /** The contract version this client was generated from. */
  static readonly contractVersion = CONTRACT_VERSION;
  private readonly shared: Shared;
  /** The proxy user of this client's calls, if any. */
  readonly proxy: ProxyUser | undefined;

  constructor(options: ClientOptions) {
    const fetcher = options.fetch ?? globalThis.fetch;
    if (!fetcher) throw new Error("no fetch: pass options.fetch");
    this.shared = {
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      apiKey: options.apiKey,
      signer: options.secretKey === undefined ? undefined : new Signer(options.secretKey),
      clock: new MonotonicClock(options.now),
      fetch: fetcher.bind(globalThis),
      retry: retryPolicy(options.retry),
      headers: { ...options.headers },
    };
    this.proxy = options.proxy;
    proxyHeaders(this.proxy); // validate early
  }

  /** The server root this client talks to. */
  get baseUrl(): string {
    return this.shared.baseUrl;
  }

  /** A client acting for a proxy user (same application, same clock, same caches). */
  asUser(proxy: ProxyUser): this {
    proxyHeaders(proxy);
    const derived = Object.create(Object.getPrototypeOf(this) as object) as this;
    return Object.assign(derived, this, { proxy });
  }

  /** Typed GET of a contract path: resolves to the envelope's data, throws ModhubError. */
  async get<P extends PathsWith<"get">>(path: P, ...init: InitArgs<Operation<P, "get">>): Promise<DataOf<Operation<P, "get">>> {
    return (await this.result("GET", path, init[0] as RequestOptions | undefined)).data as DataOf<Operation<P, "get">>;
  }

  /** Typed POST of a contract path. */
  async post<P extends PathsWith<"post">>(path: P, ...init: InitArgs<Operation<P, "post">>): Promise<DataOf<Operation<P, "post">>> {
    return (await this.result("POST", path, init[0] as RequestOptions | undefined)).data as DataOf<Operation<P, "post">>;
  }

  /** Typed PUT of a contract path. */
  async put<P extends PathsWith<"put">>(path: P, ...init: InitArgs<Operation<P, "put">>): Promise<DataOf<Operation<P, "put">>> {
    return (await this.result("PUT", path, init[0] as RequestOptions | undefined)).data as DataOf<Operation<P, "put">>;
  }

  /** Typed DELETE of a contract path. */
  async delete<P extends PathsWith<"delete">>(path: P, ...init: InitArgs<Operation<P, "delete">>): Promise<DataOf<Operation<P, "delete">>> {
    return (await this.result("DELETE", path, init[0] as RequestOptions | undefined)).data as DataOf<Operation<P, "delete">>;
  }

  /** A typed call with the answer's metadata (status, headers, ETag, 304). */
  async call<M extends HttpMethod, P extends PathsWith<M>>(method: M, path: P,
    ...init: InitArgs<Operation<P, M>>): Promise<ApiResult<DataOf<Operation<P, M>>>> {
    return this.result(method.toUpperCase(), path, init[0] as RequestOptions | undefined) as
      Promise<ApiResult<DataOf<Operation<P, M>>>>;
  }

  /** An untyped call: send, then read the envelope (ModhubError on a refusal). */
  async result(method: string, path: string, options: RequestOptions = {}): Promise<ApiResult<unknown>> {
    const response = await this.send(method, path, options);
    return readEnvelope(response, method.toUpperCase(), new URL(response.url || this.shared.baseUrl).pathname);
  }

  /** Send one request (signed, retried) and return the raw Response; errors are not thrown
   * here except for a failed connection. `pathTemplate` is a contract path template or any
   * path of the server; an absolute URL of another origin is fetched unsigned. */
  async send(method: string, pathTemplate: string, options: RequestOptions = {}): Promise<Response> {
    const upper = method.toUpperCase();
    const operation = findOperation(upper, pathTemplate);
    const url = new URL(expandPath(pathTemplate, options.path) + queryString(options.query), this.shared.baseUrl + "/");
    const sameOrigin = url.origin === new URL(this.shared.baseUrl).origin;
    const signed = options.signed ?? (sameOrigin && operation?.access !== "A" && url.pathname.startsWith("/openapi/"));
    const headers: Record<string, string> = { ...this.shared.headers, ...options.headers };
    if (signed) Object.assign(headers, proxyHeaders(options.proxy === false ? undefined : options.proxy ?? this.proxy));
    if (options.ifNoneMatch !== undefined) headers["If-None-Match"] = options.ifNoneMatch;
    let idempotencyKey = options.idempotencyKey;
    if (idempotencyKey === undefined && operation?.idempotencyKey) idempotencyKey = globalThis.crypto.randomUUID();
    if (idempotencyKey !== undefined) headers["Idempotency-Key"] = idempotencyKey;

    let body: BodyInit | undefined;
    if (options.body !== undefined) {
      if (RAW_BODY(options.body)) body = options.body;
      else {
        body = JSON.stringify(options.body);
        headers["Content-Type"] ??= "application/json";
      }
    }
    const streamed = typeof ReadableStream !== "undefined" && body instanceof ReadableStream;
    // Reads are retried; a write only when the contract says it honours the Idempotency-Key
    // that goes with it. A contract-less request: GET and HEAD only.
    const safe = operation ? operation.readOnly || (operation.idempotencyKey && idempotencyKey !== undefined)
      : upper === "GET" || upper === "HEAD";
    const retries = safe && !streamed ? this.shared.retry.maxRetries : 0;

    for (let attempt = 0; ; attempt++) {
      const attemptHeaders = { ...headers };
      if (signed) {
        if (!this.shared.signer || this.shared.apiKey === undefined) {
          throw new Error(`${upper} ${url.pathname} needs the API key and the secret key`);
        }
        // The path exactly as fetch sends it (URL-normalised, no query), a new timestamp per attempt.
        Object.assign(attemptHeaders, await this.shared.signer.headers(this.shared.apiKey, upper, url.pathname,
          this.shared.clock.next()));
      }
      let response: Response;
      try {
        response = await this.shared.fetch(url, {
          method: upper, headers: attemptHeaders, body, redirect: options.redirect ?? "follow",
          signal: options.signal, ...(streamed ? { duplex: "half" } : {}),
        } as RequestInit);
      } catch (error) {
        if (attempt >= retries || options.signal?.aborted) throw error;
        await sleep(backoffDelayMs(this.shared.retry, attempt, null), options.signal);
        continue;
      }
      if (attempt >= retries || !this.shared.retry.statuses.includes(response.status)) return response;
      const retryAfter = parseRetryAfterSeconds(response.headers.get("Retry-After"));
      if (retryAfter !== null && retryAfter > this.shared.retry.maxRetryAfterSeconds) return response;
      await response.body?.cancel();
      await sleep(backoffDelayMs(this.shared.retry, attempt, retryAfter), options.signal);
    }
  }

  /** Every page of a paged GET, from `query.pageNum` (default 1) until hasMore is false. */
  async *pages<P extends PagedPaths>(path: P, ...init: InitArgs<Operation<P, "get">>): AsyncGenerator<Page<ItemOf<P>>> {
    const options = { ...(init[0] ?? {}) } as RequestOptions & { query?: Record<string, unknown> };
    let pageNum = Number(options.query?.pageNum ?? 1);
    for (;;) {
      const query = { ...options.query, pageNum };
      const page = (await this.result("GET", path, { ...options, query })).data as Page<ItemOf<P>>;
      yield page;
      if (!page.hasMore || page.list.length === 0) return;
      pageNum += 1;
    }
  }

  /** Every record of a paged GET, page after page. */
  async *items<P extends PagedPaths>(path: P, ...init: InitArgs<Operation<P, "get">>): AsyncGenerator<ItemOf<P>> {
    for await (const page of this.pages(path, ...init)) yield* page.list;
  }
}

/** Read an answer: the envelope's data on success, ModhubError otherwise. Answers outside the
 * envelope (the meta documents) are returned as they are: parsed JSON, or text. */
export async function readEnvelope(response: Response, method: string, path: string): Promise<ApiResult<unknown>> {
  const meta = {
    status: response.status, headers: response.headers,
    etag: response.headers.get("ETag"), traceId: response.headers.get("X-Request-Id"),
  };
  if (response.status === 304) return { ...meta, data: undefined, notModified: true };
  if (response.status === 204) return { ...meta, data: undefined, notModified: false };
  if (!response.ok) throw await ModhubError.fromResponse(response, method, path);
  const type = response.headers.get("Content-Type") ?? "";
  if (!/[/+]json\b/i.test(type)) return { ...meta, data: await response.text(), notModified: false };
  const body = (await response.json()) as Record<string, unknown> | null;
  const envelope = body !== null && typeof body === "object" && "code" in body && "ok" in body && "traceId" in body;
  if (!envelope) return { ...meta, data: body, notModified: false };
  if (body.ok !== true || body.code !== 0) {
    throw new ModhubError({
      code: typeof body.code === "number" ? body.code : null, msg: String(body.msg),
      traceId: String(body.traceId), status: response.status, method, path,
    });
  }
  return { ...meta, data: body.data, traceId: String(body.traceId), notModified: false };
}
