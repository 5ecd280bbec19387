import { z } from 'zod'

/**
 * Who may call an endpoint (DESIGN §4). The API registers each endpoint in the scope of its access —
 * authentication is on by default under /api and admin endpoints live in an admin-only sub-scope —
 * and refuses at start-up to register one in the wrong scope.
 * - `public`: anyone; the caller is not identified.
 * - `optional`: anyone; a valid token identifies the caller (a visitor may buy, a buyer sees more).
 * - `user`: a valid token of a non-banned account (401 otherwise).
 * - `admin`: an admin's token (401 without a token, 403 for another role).
 */
export type Access = 'public' | 'optional' | 'user' | 'admin'

export type Method = 'GET' | 'POST'

/** One endpoint, whole: what the API registers and what the console's typed client calls. */
export type Endpoint = {
  method: Method
  /** The full path, as SPEC §7 spells it. */
  path: `/api/${string}`
  access: Access
  /** The OpenAPI tag (the area). */
  tag: string
  summary: string
  query?: z.ZodType
  body?: z.ZodType
  /** The `data` of a successful `{code, msg, data}` answer. */
  response: z.ZodType
}

/** Keeps the literal types of a definition (method, path, schemas) for both sides. */
export function endpoint<const E extends Endpoint>(e: E): E {
  return e
}

/** What the caller sends as the query string / JSON body (before the schema's defaults and coercions). */
export type QueryIn<E extends Endpoint> = E['query'] extends z.ZodType ? z.input<E['query']> : undefined
export type BodyIn<E extends Endpoint> = E['body'] extends z.ZodType ? z.input<E['body']> : undefined
/** What the handler receives after validation. */
export type QueryOut<E extends Endpoint> = E['query'] extends z.ZodType ? z.output<E['query']> : undefined
export type BodyOut<E extends Endpoint> = E['body'] extends z.ZodType ? z.output<E['body']> : undefined
/** The answer's `data`. */
export type DataOf<E extends Endpoint> = z.output<E['response']>

/** DESIGN §4 lists: `{list, total, pageNum, pageSize}`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), total: z.number().int(), pageNum: z.number().int(), pageSize: z.number().int() })
}

/** The API's liveness check (`{status: 'up'}`), outside the documented endpoints: start scripts and the bench wait on it. */
export const HEALTH_PATH = '/api/health'

/** An answer with nothing in `data`. */
export const nothing = z.null()

/** ISO-8601 timestamps as the API writes them (`Date#toISOString`). */
export const timestamp = z.string()
