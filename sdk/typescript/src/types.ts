// Types derived from the generated contract types (src/generated/schema.ts): the typed calls of
// the client take a path template of the contract and check its parameters and body.
import type { components, paths } from "./generated/schema.js";

export type { components, operations, paths } from "./generated/schema.js";

/** A schema of the contract by name: `Schema<"ModSummaryVO">`. */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];

/** HTTP methods of the contract's operations. */
export type HttpMethod = "get" | "put" | "post" | "delete" | "patch";

/** Path templates that have an operation for `M`. */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: paths[P] extends Record<M, object> ? P : never;
}[keyof paths];

/** The operation of a path template and method. */
export type Operation<P extends keyof paths, M extends HttpMethod> =
  paths[P] extends Record<M, infer O> ? O : never;

type Defined<T> = Exclude<T, undefined>;
type PathParams<O> = O extends { parameters: { path?: infer X } } ? Defined<X> : never;
type QueryParams<O> = O extends { parameters: { query?: infer X } } ? Defined<X> : never;
type QueryRequired<O> = O extends { parameters: { query: object } } ? true : false;
type JsonBody<O> = O extends { requestBody?: { content: infer C } }
  ? C extends { "application/json": infer B } ? B : C[keyof C] : never;
type BodyRequired<O> = O extends { requestBody: object } ? true : false;

type PathPart<O> = [PathParams<O>] extends [never] ? { path?: never } : { path: PathParams<O> };
type QueryPart<O> = [QueryParams<O>] extends [never] ? { query?: never }
  : QueryRequired<O> extends true ? { query: QueryParams<O> } : { query?: QueryParams<O> };
type BodyPart<O> = [JsonBody<O>] extends [never] ? { body?: never }
  : BodyRequired<O> extends true ? { body: JsonBody<O> } : { body?: JsonBody<O> };

/** A proxy user for one call (or the client's): its id, and its access token on T operations. */
export interface ProxyUser {
  /** X-Proxy-User-Id: the platform user's id (ASCII digits). */
  userId?: string | number | bigint;
  /** X-Proxy-Access-Token: the user's token; its user overrides userId. */
  accessToken?: string;
}

/** Options every call takes. */
export interface CallOptions {
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** The proxy user of this call; `false` sends none even when the client has one. */
  proxy?: ProxyUser | false;
  /** Idempotency-Key of a write; the client makes one for operations that honour it. */
  idempotencyKey?: string;
  /** If-None-Match: a 304 then resolves with `notModified: true`. */
  ifNoneMatch?: string;
  signal?: AbortSignal;
}

/** What a typed call takes: the path parameters, the query, the body and the call options. */
export type Init<O> = PathPart<O> & QueryPart<O> & BodyPart<O> & CallOptions;

type HasRequired<O> = [PathParams<O>] extends [never]
  ? QueryRequired<O> extends true ? true : BodyRequired<O> : true;

/** The init argument: required when the operation has a required parameter or body. */
export type InitArgs<O> = HasRequired<O> extends true ? [init: Init<O>] : [init?: Init<O>];

type Success<O> = O extends { responses: { 200: { content: infer C } } }
  ? C extends { "application/json": infer R } ? R : C[keyof C]
  : O extends { responses: { 201: { content: { "application/json": infer R } } } } ? R : unknown;

/** The `data` of an operation's success envelope (or the whole answer of a non-envelope one). */
export type DataOf<O> = Success<O> extends { ok: boolean; data?: infer D } ? Defined<D> : Success<O>;

/** A paged answer: PageResult of some record. */
export interface Page<T> {
  list: T[];
  hasMore: boolean;
  pageNum: number;
  pageSize: number;
  total: number;
  pages: number;
}

/** GET path templates whose data is a PageResult. */
export type PagedPaths = {
  [P in PathsWith<"get">]: DataOf<Operation<P, "get">> extends { list: unknown[]; hasMore: boolean } ? P : never;
}[PathsWith<"get">];

/** The record type of a paged GET path template. */
export type ItemOf<P extends PagedPaths> = DataOf<Operation<P, "get">> extends { list: (infer T)[] } ? T : never;

/** The answer of a call with its metadata. */
export interface ApiResult<T> {
  /** The envelope's data (undefined on a 304). */
  data: T;
  status: number;
  headers: Headers;
  /** The envelope's traceId (= X-Request-Id). */
  traceId: string | null;
  /** The answer's ETag, to send back as `ifNoneMatch`. */
  etag: string | null;
  /** True on 304 Not Modified: `data` is undefined then. */
  notModified: boolean;
}
