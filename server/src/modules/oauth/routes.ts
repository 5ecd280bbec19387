import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { oauthApi, providerSchema } from '#contract/oauth.ts'
import { redirectTarget } from '#contract/redirects.ts'
import { notFound } from '../../errors.ts'
import { defineModule, ok } from '../../http/module.ts'
import { SANDBOX_IDENTITIES } from '../../providers/oauth/sandbox.ts'
import * as oauth from './service.ts'

/** /api/oauth: QQ / WeChat login, bind and unbind (issue 12), and the sandbox consent page. */
export default defineModule({
  name: 'oauth',
  async routes(r) {
    const { app } = r
    const client = (request: { ip: string; headers: { 'user-agent'?: string } }) => ({ ip: request.ip, userAgent: request.headers['user-agent'] })
    r.route(oauthApi.providers, async () => ok(oauth.offered(app)))
    r.route(oauthApi.authorize, async (request) => ok(await oauth.authorize(app, { ...request.body, userId: request.user?.id })))
    r.route(oauthApi.callback, async (request) => {
      const answer = await oauth.callback(app, { ...request.body, userId: request.user?.id, ...client(request) })
      return ok(answer, answer.kind === 'login' ? 'auth.welcome' : answer.kind === 'bound' ? 'oauth.bound' : 'ok')
    })
    r.route(oauthApi.bindExisting, async (request) => ok(await oauth.bindExisting(app, { ...request.body, ...client(request) }), 'auth.welcome'))
    r.route(oauthApi.createAccount, async (request) => ok(await oauth.createAccount(app, { ...request.body, ...client(request) }), 'auth.welcome'))
    r.route(oauthApi.bindings, async (request) => ok(await oauth.bindings(app, request.user)))
    r.route(oauthApi.unbind, async (request) => {
      await oauth.unbind(app, request.user.id, request.body.provider)
      return ok(null, 'oauth.unbound')
    })
    await app.register(sandboxConsent)
  },
})

const consentQuery = z.object({ provider: providerSchema, redirect_uri: z.string().url().max(500), state: z.string().min(1).max(512), sig: z.string().max(100) })

/**
 * The sandbox's consent page (used when QQ / WeChat credentials are not configured and OAUTH_SANDBOX is
 * on): pick a test identity, come back to the console's callback with a code — the way QQ's and WeChat's
 * pages do. It speaks HTML to the browser, not the `{code, msg, data}` contract.
 */
async function sandboxConsent(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const config = { access: 'public' } as const
  const NAMES = { qq: 'QQ', wechat: '微信 WeChat' } as const

  app.get('/api/oauth/sandbox/authorize', { config, schema: { hide: true } }, async (request, reply) => {
    const sandbox = app.oauth.sandbox
    if (!sandbox) throw notFound()
    const q = consentQuery.safeParse(request.query)
    if (!q.success || !sandbox.verifyConsent({ provider: q.data.provider, redirectUri: q.data.redirect_uri, state: q.data.state, sig: q.data.sig }) || !redirectTarget(q.data.redirect_uri, { origin: app.config.oauth.callbackBaseUrl }).ok) {
      return reply.code(400).type('text/html; charset=utf-8').send(page('无效的授权链接 · Invalid consent link', '<p>The link was changed or is incomplete.</p>'))
    }
    const { provider, redirect_uri, state, sig } = q.data
    const hidden = Object.entries({ provider, redirect_uri, state, sig })
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`)
      .join('')
    const choices = SANDBOX_IDENTITIES.map(
      (i, n) => `<label class="choice"><input type="radio" name="identity" value="${i.key}"${n === 0 ? ' checked' : ''}> ${escapeHtml(i.nickname)}</label>`,
    ).join('')
    return reply.type('text/html; charset=utf-8').send(
      page(
        `${NAMES[provider]} 沙箱授权 · Sandbox consent`,
        `<p class="note">这是测试用的沙箱登录，不连接${NAMES[provider]}。<br>This is the sandbox: no real ${provider === 'qq' ? 'QQ' : 'WeChat'} account is involved.</p>
        <form method="post" action="/api/oauth/sandbox/authorize">${hidden}
          <fieldset><legend>选择测试身份 Pick a test identity</legend>${choices}
            <label class="choice"><input type="radio" name="identity" value="custom"> 其他 Other:</label>
            <label class="name">名字 Name <input name="name" maxlength="40" autocomplete="off"></label>
          </fieldset>
          <div class="buttons"><button name="action" value="allow" class="pay">授权并登录 Allow</button>
          <button name="action" value="deny" class="cancel">取消 Cancel</button></div>
        </form>`,
      ),
    )
  })

  app.post('/api/oauth/sandbox/authorize', { config, schema: { hide: true } }, async (request, reply) => {
    const sandbox = app.oauth.sandbox
    if (!sandbox) throw notFound()
    const form = consentQuery
      .extend({ action: z.enum(['allow', 'deny']), identity: z.string().max(20).default('a'), name: z.string().max(100).default('') })
      .safeParse(request.body ?? {})
    if (!form.success || !sandbox.verifyConsent({ provider: form.data.provider, redirectUri: form.data.redirect_uri, state: form.data.state, sig: form.data.sig })) {
      return reply.code(400).type('text/html; charset=utf-8').send(page('无效的授权请求 · Invalid consent', '<p>The request was changed or is incomplete.</p>'))
    }
    const { provider, redirect_uri, state, action, identity, name } = form.data
    // Signed, and still only ever back to the console's callback (decision 105): the one redirect check.
    const target = redirectTarget(redirect_uri, { origin: app.config.oauth.callbackBaseUrl })
    if (!target.ok) return reply.code(400).type('text/html; charset=utf-8').send(page('无效的授权请求 · Invalid consent', '<p>The request was changed or is incomplete.</p>'))
    const back = new URL(target.to)
    if (action === 'deny') {
      back.search = new URLSearchParams({ error: 'access_denied', state }).toString()
      return reply.redirect(back.toString(), 303)
    }
    // A typed name wins over the ready-made choice (the form has both).
    const who = sandbox.identityFor(provider, name.trim() || identity === 'custom' ? { name } : { key: identity })
    if (!who) {
      return reply.code(400).type('text/html; charset=utf-8').send(page('请填写名字 · Name needed', '<p>“其他”需要 1–40 个字符的名字。 “Other” needs a name of 1–40 characters.</p>'))
    }
    back.search = new URLSearchParams({ code: sandbox.issueCode(provider, who, redirect_uri), state }).toString()
    return reply.redirect(back.toString(), 303)
  })
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function page(title: string, body: string) {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>
<style>body{font-family:system-ui,-apple-system,"PingFang SC","Noto Sans CJK SC",sans-serif;background:#f2f3f5;margin:0;padding:24px}main{max-width:420px;margin:0 auto;background:#fff;border-radius:8px;padding:24px;box-shadow:0 1px 4px #0002}h1{font-size:20px;margin:0 0 12px}.note{color:#86909c;font-size:13px}fieldset{border:1px solid #e5e6eb;border-radius:6px;margin:0 0 16px;padding:12px}legend{font-size:14px;color:#4e5969}.choice,.name{display:block;padding:6px 0;font-size:15px}.name input{margin-left:8px;padding:6px;border:1px solid #c9cdd4;border-radius:4px}.buttons{display:flex;gap:12px}button{flex:1;padding:12px;font-size:16px;border-radius:6px;border:1px solid #c9cdd4;cursor:pointer}.pay{background:#165dff;color:#fff;border-color:#165dff}.cancel{background:#fff}</style>
</head><body><main><h1>${title}</h1>${body}</main></body></html>`
}
