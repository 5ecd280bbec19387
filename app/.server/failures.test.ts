import { parseWithZod } from '@conform-to/zod/v4'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { get, post, settle, statusOf } from '../../tests/support/console.ts'
import { ApiError } from './api.ts'
import { CONFIRM_LOGOUT_IN_FORM } from '#app/components/feedback/flash.tsx'
import { fieldError, pageError, rowError, rowRefusal } from './failures.ts'

const stub = await vi.hoisted(async () => (await import('../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

const submission = () => parseWithZod(new URLSearchParams({ email: 'a@b.cc', password: 'Secret@1' }), { schema: z.object({ email: z.string(), password: z.string() }) })
const page = '/share-manage/search-table?title=x'

describe('the three ways an API failure reaches the user', () => {
  it('a form: 422 field messages at the fields (renamed), passwords never sent back', async () => {
    const e = new ApiError(422, 'errors.validation', { fieldErrors: { email: ['validation.emailTaken'] } }, '/api/auth/register/email')
    const res = statusOf(await fieldError(post('/login', {}), submission(), e, { email: 'email_phone' }))
    expect(res.status).toBe(400)
    const reply = res.data as { error: Record<string, string[]>; initialValue: Record<string, string> }
    expect(reply.error).toMatchObject({ email_phone: ['validation.emailTaken'] })
    expect(reply.initialValue.password).toBeUndefined()
  })

  it('a form: another refusal is the msg above the form', async () => {
    const res = statusOf(await fieldError(post('/login', {}), submission(), new ApiError(409, 'auth.userExists', null, '/api/auth/register/email')))
    expect((res.data as { error: Record<string, string[]> }).error['']).toEqual(['auth.userExists'])
  })

  it('a form: no answer from the API says "Request Error" there, with 503 — no logout dialog', async () => {
    const res = statusOf(await fieldError(post('/login', {}), submission(), new ApiError(503, 'errors.requestError', null, '/api/users/update', true)))
    expect(res.status).toBe(503)
    expect((res.data as { error: Record<string, string[]> }).error['']).toEqual(['errors.requestError'])
  })

  it('any of them: a dead token logs out and goes to login, back to this page', async () => {
    for (const run of [
      () => fieldError(get(page), submission(), new ApiError(401, 'auth.unauthorized', null, '/api/shares/new')),
      () => pageError(get(page), new ApiError(401, 'auth.unauthorized', null, '/api/shares/list')),
      () => rowError(get(page), new ApiError(401, 'auth.unauthorized', null, '/api/shares/delete')),
    ]) {
      const res = statusOf(await settle(run))
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe('/login?redirect=%2Fshare-manage%2Fsearch-table%3Ftitle%3Dx')
      expect(res.headers.get('set-cookie')).toMatch(/^ps_session=;/)
    }
  })

  it("the login call's 401 is a wrong password, not a dead session", async () => {
    const res = statusOf(await fieldError(post('/login', {}), submission(), new ApiError(401, 'auth.badCredentials', null, '/api/auth/login')))
    expect(res.status).toBe(400)
  })

  it('a row: 500–504 open the "Confirm logout" dialog on this page', async () => {
    const res = statusOf(await settle(() => rowError(get(page), new ApiError(504, 'errors.internal', null, '/api/shares/delete'))))
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(page)
    expect(res.headers.get('set-cookie')).toMatch(/^ps_toast=/)
  })

  it('a form: 500–504 come back to the form with what was typed and the msg, and open the dialog there', async () => {
    // With JavaScript (a fetch): the flash cookie, read by the root's revalidation.
    const fetched = statusOf(await fieldError(post(page, {}), submission(), new ApiError(500, 'errors.internal', null, '/api/shares/new')))
    expect(fetched.status).toBe(500)
    const reply = fetched.data as { error: Record<string, string[]>; initialValue: Record<string, string> }
    expect(reply.error['']).toEqual(['errors.internal'])
    expect(reply.initialValue).toEqual({ email: 'a@b.cc' })
    expect(fetched.headers.get('set-cookie')).toMatch(/^ps_toast=/)
    // Without (a page post): no cookie left for a later page; the form's messages open the dialog.
    const request = post(page, {}, { headers: { accept: 'text/html,application/xhtml+xml' } })
    const posted = statusOf(await fieldError(request, submission(), new ApiError(502, 'errors.internal', null, '/api/users/update')))
    expect(posted.status).toBe(502)
    expect(posted.headers.get('set-cookie')).toBeNull()
    expect((posted.data as { error: Record<string, string[]> }).error['']).toEqual(['errors.internal', CONFIRM_LOGOUT_IN_FORM])
  })

  it('a row of a list: 500–504 answer the page itself (no redirect), the dialog opened there', async () => {
    const e = () => new ApiError(500, 'errors.internal', null, '/api/withdrawals/admin/batch-reject')
    // Without JavaScript (a page post): the page is rendered with the msg and the dialog; no cookie left.
    const posted = statusOf(await rowRefusal(post(page, {}, { headers: { accept: 'text/html,application/xhtml+xml' } }), e(), { intent: 'batch' }))
    expect(posted.status).toBe(500)
    expect(posted.headers.get('location')).toBeNull()
    expect(posted.headers.get('set-cookie')).toBeNull()
    expect(posted.data).toEqual({ intent: 'batch', error: 'errors.internal', confirmLogout: true })
    // With JavaScript (a fetch): the flash cookie for the root's revalidation, which the 500 triggers.
    const fetched = statusOf(await rowRefusal(post(page, {}), e()))
    expect(fetched.status).toBe(500)
    expect(fetched.headers.get('location')).toBeNull()
    expect(fetched.headers.get('set-cookie')).toMatch(/^ps_toast=/)
    expect(fetched.data).toEqual({ error: 'errors.internal', confirmLogout: false })
  })

  it('a row of a list: other refusals and the msgs the page states itself are a 400 without the dialog', async () => {
    for (const e of [new ApiError(409, 'orders.notRefundable', null, '/api/orders/admin/refund'), new ApiError(502, 'orders.gatewayError', null, '/api/orders/admin/refund')]) {
      const res = statusOf(await rowRefusal(post(page, {}, { headers: { accept: 'text/html' } }), e, {}, ['orders.gatewayError']))
      expect(res).toMatchObject({ status: 400, data: { error: e.msg, confirmLogout: false } })
      expect(res.headers.get('set-cookie')).toBeNull()
    }
  })

  it('a row: the msgs the page states itself come back as the message', async () => {
    expect(await rowError(get(page), new ApiError(502, 'orders.gatewayError', null, '/api/orders/admin/refund'), ['orders.gatewayError'])).toBe('orders.gatewayError')
    expect(await rowError(get(page), new ApiError(409, 'orders.notRefundable', null, '/api/orders/admin/refund'))).toBe('orders.notRefundable')
  })

  it('a page: the error page with the msg; 503 "temporarily unavailable" when the API did not answer', async () => {
    const failed = statusOf(await settle(() => pageError(get(page), new ApiError(500, 'errors.internal', null, '/api/shares/list'))))
    expect(failed).toMatchObject({ status: 500, data: { msg: 'errors.internal', confirmLogout: true } })
    const down = statusOf(await settle(() => pageError(get(page), new ApiError(503, 'errors.requestError', null, '/api/shares/list', true))))
    expect(down).toMatchObject({ status: 503, data: { msg: 'errors.serviceUnavailable', unavailable: true } })
  })

  it('anything else is a bug and stays one', async () => {
    const bug = new TypeError('x is undefined')
    expect(await settle(() => pageError(get(page), bug))).toBe(bug)
  })
})
