// Bad input for an endpoint, generated from a description of its fields: every case must be answered
// with a 4xx envelope (422 naming the field when a field is at fault), never a 500, and change nothing.
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'

export type FieldSpec = {
  type: 'string' | 'int'
  required?: boolean
  /** Free text (a profile, a login name): SQL or HTML in it is valid input, stored or compared as text. */
  freeText?: boolean
}

export type EndpointSpec = {
  method: 'GET' | 'POST'
  url: string
  headers?: Record<string, string>
  /** Body fields with a valid-looking base body (each case breaks one field of it). */
  body?: { fields: Record<string, FieldSpec>; valid: Record<string, unknown> }
  /** Query fields with a valid-looking base query. */
  query?: { fields: Record<string, FieldSpec>; valid: Record<string, string> }
}

export type BadCase = { name: string; request: InjectOptions; field?: string; status?: number }

export const SQL_PAYLOAD = "' OR 1=1 --"
export const HTML_PAYLOAD = '<script>alert(1)</script>'
export const HUGE = 'x'.repeat(10 * 1024)

const qs = (q: Record<string, string | string[]>) =>
  Object.entries(q)
    .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(x)}`))
    .join('&')

function withQuery(url: string, q: Record<string, string | string[]>) {
  const s = qs(q)
  return s ? `${url}?${s}` : url
}

export function badInputs(ep: EndpointSpec): BadCase[] {
  const headers = ep.headers ?? {}
  const cases: BadCase[] = []
  const base: InjectOptions = { method: ep.method, url: ep.url, headers }

  if (ep.method === 'POST') {
    const json = { ...headers, 'content-type': 'application/json' }
    // Whole-body mistakes apply to every POST, with or without a body schema.
    cases.push(
      { name: 'malformed JSON', request: { ...base, headers: json, payload: '{"user_name": "x", ' }, status: 400 },
      { name: 'prototype poisoning', request: { ...base, headers: json, payload: '{"__proto__": {"role": "admin"}}' }, status: 400 },
      { name: 'XML content type', request: { ...base, headers: { ...headers, 'content-type': 'application/xml' }, payload: '<a>1</a>' }, status: 415 },
      { name: 'unknown content type', request: { ...base, headers: { ...headers, 'content-type': 'application/x-evil' }, payload: 'x' }, status: 415 },
      { name: 'body over the size limit', request: { ...base, headers: json, payload: `{"a":"${'x'.repeat(300 * 1024)}"}` }, status: 413 },
    )
    if (ep.body) {
      const required = Object.values(ep.body.fields).some((f) => f.required)
      cases.push(
        { name: 'no body', request: base, status: required ? 422 : undefined },
        { name: 'empty object', request: { ...base, payload: {} }, status: required ? 422 : undefined },
        { name: 'array body', request: { ...base, headers: json, payload: '[]' }, status: 422 },
        { name: 'string body', request: { ...base, headers: json, payload: '"hello"' }, status: 422 },
        { name: 'text/plain body', request: { ...base, headers: { ...headers, 'content-type': 'text/plain' }, payload: 'user_name=x' }, status: 422 },
      )
      for (const [field, spec] of Object.entries(ep.body.fields)) {
        const put = (value: unknown) => ({ ...base, payload: { ...ep.body!.valid, [field]: value } })
        const values: [string, unknown][] = [
          ['null', null],
          ['an array', ['a']],
          ['an object', { $ne: null }],
        ]
        if (spec.required) {
          const { [field]: _, ...rest } = ep.body.valid
          cases.push({ name: `${field} missing`, request: { ...base, payload: rest }, field, status: 422 })
        }
        if (spec.type === 'string') {
          values.push(['a number', 12345], ['a boolean', true], ['10 KB', HUGE])
          if (!spec.freeText) values.push(['SQL', SQL_PAYLOAD], ['HTML', HTML_PAYLOAD])
        } else {
          values.push(['text', 'abc'], ['negative', -1], ['a fraction', 1.5], ['beyond int4', 99999999999], ['a boolean', true], ['empty text', ''])
        }
        for (const [what, value] of values) cases.push({ name: `${field} ${what}`, request: put(value), field, status: 422 })
      }
    }
  }

  if (ep.query) {
    for (const [field, spec] of Object.entries(ep.query.fields)) {
      const put = (value: string | string[]) => ({ ...base, url: withQuery(ep.url, { ...ep.query!.valid, [field]: value }) })
      const values: [string, string | string[]][] = [
        ['10 KB', HUGE],
        ['repeated', ['a', 'b']],
      ]
      if (spec.type === 'string' && !spec.freeText) values.push(['SQL', SQL_PAYLOAD], ['HTML', HTML_PAYLOAD])
      if (spec.type === 'int') values.push(['text', 'abc'], ['negative', '-1'], ['a fraction', '1.5'], ['beyond int4', '99999999999'])
      for (const [what, value] of values) cases.push({ name: `?${field} ${what}`, request: put(value), field, status: 422 })
    }
  }
  return cases
}

/** A rejected request: a 4xx envelope whose code mirrors the status, 422 naming the field at fault. */
export function expectRejected(res: LightMyRequestResponse, c: BadCase) {
  const label = `${c.request.method} ${String(c.request.url).slice(0, 80)} — ${c.name}: ${res.statusCode} ${res.body.slice(0, 200)}`
  expect(res.statusCode, label).toBeGreaterThanOrEqual(400)
  expect(res.statusCode, label).toBeLessThan(500)
  if (c.status) expect(res.statusCode, label).toBe(c.status)
  const body = res.json() as { code: number; msg: string; data: { fieldErrors?: Record<string, string[]> } | null }
  expect(body.code, label).toBe(res.statusCode)
  expect(body.msg, label).toMatch(/^[a-z]+\.[A-Za-z.]+$/)
  if (res.statusCode === 422) {
    const fieldErrors = body.data?.fieldErrors
    expect(fieldErrors, label).toBeTypeOf('object')
    expect(Object.keys(fieldErrors!).length, label).toBeGreaterThan(0)
    for (const list of Object.values(fieldErrors!)) for (const m of list) expect(m, label).toMatch(/^[a-z]+\.[A-Za-z.]+$/)
    if (c.field) expect(Object.keys(fieldErrors!), label).toContain(c.field)
  }
}
