// The one client's request building (decision 130): what the console, the e2e helpers and the bench send.
import { describe, expect, it } from 'vitest'
import { requestOf, urlOf } from './client.ts'
import { ordersApi } from './orders.ts'
import { usersApi } from './users.ts'

describe('requestOf', () => {
  it('a GET: the endpoint’s path with its query, empty values left out, no body', () => {
    const req = requestOf('http://api.test', ordersApi.adminList, { query: { keyword: 'a b', payment_status: '', unicode: undefined, pageNum: 2 } })
    expect(req.method).toBe('GET')
    expect(req.url.href).toBe('http://api.test/api/orders/admin/list?keyword=a+b&pageNum=2')
    expect(req.body).toBeUndefined()
  })

  it('a POST: its JSON body, `{}` when it has none', () => {
    expect(requestOf('http://api.test', usersApi.adminUpdate, { body: { id: 7, is_banned: 1 } })).toMatchObject({ method: 'POST', body: '{"id":7,"is_banned":1}' })
    expect(requestOf('http://api.test', usersApi.agreeToTerms).body).toBe('{}')
  })

  it('urlOf: the URL a load generator repeats', () => {
    expect(urlOf('http://api.test', usersApi.getUserById, { query: { id: 3 } })).toBe('http://api.test/api/users/admin/getUserById?id=3')
  })
})
