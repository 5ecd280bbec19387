import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { formatYuan } from '#contract/money.ts'
import { orderNoSchema, paymentMethodSchema } from '#contract/orders.ts'
import { redirectTarget } from '#contract/redirects.ts'
import { notFound } from '../../errors.ts'
import { defineModule } from '../../http/module.ts'
import { metrics } from '../../metrics.ts'
import { NotificationRejected, type PaymentProviderName } from '../../providers/payments/types.ts'
import { refundContext, settleNotification, settlePolicy, settleRefundNotification } from '../orders/index.ts'

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * Gateway notifications (POST /api/payments/{alipay|wechat|sandbox}/notify; refund outcomes, from the
 * gateways that report them, POST /api/payments/wechat/refund-notify) and the sandbox gateway's
 * checkout page. These speak the gateways' formats, not the `{code, msg, data}` contract, so they are
 * raw routes; they are public (`config.access`): notifies are authenticated by signature, not by
 * session or CSRF token, and the raw body is kept because the signatures cover its exact bytes.
 */
export default defineModule({
  name: 'payments',
  async routes(r) {
    await r.app.register(gatewayRoutes)
  },
})

async function gatewayRoutes(fastify: FastifyInstance) {
  // This scope reads every body as a string (signatures cover the raw bytes).
  fastify.removeAllContentTypeParsers()
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body))
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const config = { access: 'public' } as const

  app.post(
    '/api/payments/:provider/notify',
    { config, schema: { params: z.object({ provider: z.enum(['alipay', 'wechat', 'sandbox']) }), tags: ['payments'] } },
    async (request, reply) => {
      const name = request.params.provider as PaymentProviderName
      const provider = app.payments.byName(name)
      if (!provider) throw notFound()
      const rawBody = typeof request.body === 'string' ? request.body : ''
      let answer: { status: number; contentType: string; body: string }
      try {
        const n = await provider.parseNotification({ headers: request.headers, rawBody })
        const outcome = await settleNotification(app.db, provider, n, { ...settlePolicy(app), log: request.log })
        request.log.info({ provider: name, orderNo: n.orderNo, eventKey: n.eventKey, outcome }, 'payment notification')
        metrics.paymentNotifies.inc({ provider: name, outcome })
        answer = provider.ack(true)
      } catch (e) {
        if (!(e instanceof NotificationRejected)) throw e
        // Forged, tampered or foreign: rejected and logged; the gateway sees its own failure answer.
        request.log.warn({ provider: name, reason: e.message }, 'payment notification rejected')
        metrics.paymentNotifies.inc({ provider: name, outcome: 'rejected' })
        answer = provider.ack(false)
      }
      return reply.code(answer.status).header('content-type', answer.contentType).send(answer.body)
    },
  )

  // Refund outcomes (decision 058): their own URL, given as notify_url when a refund is requested.
  app.post(
    '/api/payments/:provider/refund-notify',
    { config, schema: { params: z.object({ provider: z.enum(['alipay', 'wechat', 'sandbox']) }), tags: ['payments'] } },
    async (request, reply) => {
      const name = request.params.provider as PaymentProviderName
      const provider = app.payments.byName(name)
      if (!provider?.parseRefundNotification) throw notFound()
      const rawBody = typeof request.body === 'string' ? request.body : ''
      let answer: { status: number; contentType: string; body: string }
      try {
        const n = await provider.parseRefundNotification({ headers: request.headers, rawBody })
        const outcome = await settleRefundNotification(app.db, name, n, { ...refundContext(app), log: request.log })
        request.log.info({ provider: name, orderNo: n.orderNo, eventKey: n.eventKey, state: n.state, outcome }, 'refund notification')
        metrics.refundNotifies.inc({ provider: name, outcome })
        answer = provider.ack(true)
      } catch (e) {
        if (!(e instanceof NotificationRejected)) throw e
        request.log.warn({ provider: name, reason: e.message }, 'refund notification rejected')
        metrics.refundNotifies.inc({ provider: name, outcome: 'rejected' })
        answer = provider.ack(false)
      }
      return reply.code(answer.status).header('content-type', answer.contentType).send(answer.body)
    },
  )

  // ---- the sandbox gateway (used when no real gateway is configured) ----
  const checkoutQuery = z.object({
    orderNo: orderNoSchema,
    amount: z.coerce.number().int().positive(),
    method: paymentMethodSchema,
    subject: z.string().max(200).default(''),
    returnUrl: z.string().url().max(500),
    notifyUrl: z.string().max(500).optional(),
    sig: z.string().max(100),
  })

  app.get('/api/payments/sandbox/checkout', { config, schema: { querystring: checkoutQuery, hide: true } }, async (request, reply) => {
    const q = request.query
    const sandbox = app.payments.sandbox
    if (!sandbox) throw notFound()
    if (!sandbox.verifyCheckout(q) || !redirectTarget(q.returnUrl, { origin: app.config.webUrl }).ok) return reply.code(400).type('text/html; charset=utf-8').send(page('Invalid checkout link / 支付链接无效', '<p>The link was changed or is incomplete.</p>'))
    const hidden = Object.entries({ orderNo: q.orderNo, amount: String(q.amount), method: q.method, returnUrl: q.returnUrl, sig: q.sig })
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`)
      .join('')
    const wallet = q.method === 'WeChat' ? '微信支付 WeChat Pay' : '支付宝 Alipay'
    return reply.type('text/html; charset=utf-8').send(
      page(
        `沙箱收银台 · Sandbox checkout`,
        `<p class="note">这是测试用的沙箱网关，不会产生真实扣款。<br>This is the sandbox gateway: no real money moves.</p>
        <dl><dt>商品 Item</dt><dd>${escapeHtml(q.subject)}</dd><dt>订单号 Order</dt><dd>${q.orderNo}</dd><dt>支付方式 Method</dt><dd>${wallet}</dd></dl>
        <p class="amount">${formatYuan(q.amount)}</p>
        <form method="post" action="/api/payments/sandbox/checkout">${hidden}
          <button name="action" value="pay" class="pay">确认支付 Pay</button>
          <button name="action" value="cancel" class="cancel">取消 Cancel</button>
        </form>`,
      ),
    )
  })

  app.post('/api/payments/sandbox/checkout', { config, schema: { hide: true } }, async (request, reply) => {
    const form = Object.fromEntries(new URLSearchParams(typeof request.body === 'string' ? request.body : ''))
    const parsed = checkoutQuery.extend({ action: z.enum(['pay', 'cancel']) }).safeParse(form)
    const sandbox = app.payments.sandbox
    if (!sandbox) throw notFound()
    if (!parsed.success || !sandbox.verifyCheckout(parsed.data)) {
      return reply.code(400).type('text/html; charset=utf-8').send(page('Invalid checkout / 支付请求无效', '<p>The request was changed or is incomplete.</p>'))
    }
    const { orderNo, amount, action } = parsed.data
    // Signed, and still only ever back to the console (decision 105): the one redirect check.
    const back = redirectTarget(parsed.data.returnUrl, { origin: app.config.webUrl })
    if (!back.ok) return reply.code(400).type('text/html; charset=utf-8').send(page('Invalid checkout / 支付请求无效', '<p>The request was changed or is incomplete.</p>'))
    // Deliver the signed notify through the very route the gateways call (no network hop needed).
    const notify = sandbox.settle(orderNo, amount, action === 'pay')
    // As a gateway does, a notify the API could not take (a 5xx: a deadlock, a lost database connection)
    // is sent again; the buyer is sent back only once it was taken, else asked to press again (issue 22).
    let status = 0
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, 200 * attempt))
      status = (await app.inject({ method: 'POST', url: '/api/payments/sandbox/notify', headers: notify.headers, payload: notify.body })).statusCode
      if (status < 500) break
    }
    if (status !== 200) request.log.warn({ orderNo, status }, 'sandbox notify not accepted')
    if (status >= 500) {
      return reply.code(503).type('text/html; charset=utf-8').send(page('Not confirmed / 未能确认', '<p>The payment could not be recorded yet: go back and press the button again. 支付结果暂未记录，请返回重试。</p>'))
    }
    return reply.redirect(back.to, 303)
  })
}

function page(title: string, body: string) {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>
<style>body{font-family:system-ui,-apple-system,"PingFang SC","Noto Sans CJK SC",sans-serif;background:#f2f3f5;margin:0;padding:24px}main{max-width:420px;margin:0 auto;background:#fff;border-radius:8px;padding:24px;box-shadow:0 1px 4px #0002}h1{font-size:20px;margin:0 0 12px}.note{color:#86909c;font-size:13px}.amount{font-size:32px;font-weight:700;color:#165dff;text-align:center}dl{display:grid;grid-template-columns:auto 1fr;gap:6px 12px;font-size:14px}dt{color:#86909c}dd{margin:0;word-break:break-all}form{display:flex;gap:12px}button{flex:1;padding:12px;font-size:16px;border-radius:6px;border:1px solid #c9cdd4;cursor:pointer}.pay{background:#165dff;color:#fff;border-color:#165dff}.cancel{background:#fff}</style>
</head><body><main><h1>${title}</h1>${body}</main></body></html>`
}
