import { type ActionFunctionArgs, data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node'
import { Form, isRouteErrorResponse, Link, useActionData, useLoaderData, useRouteError } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { formatYuan, yuanToFen } from '#contract/money.ts'
import { BUYER_KEY_HEADER, ORDER_NO_PATTERN, UNICODE_PATTERN } from '#contract/codes.ts'
import { ordersApi, PAYMENT_METHODS, type PaymentStatus } from '#contract/orders.ts'
import { type PublicShare, shareApi } from '#contract/shares.ts'
import { type DeadLinkNotice, linksApi } from '#contract/links.ts'
import { subscriptionsApi } from '#contract/subscriptions.ts'
import { useNonce } from '#app/components/layout/nonce.tsx'
import { PublicError, PublicShell } from '#app/components/layout/public-shell.tsx'
import type { RouteHandle } from '#app/root.tsx'
import { ApiError, api } from '#app/.server/api.ts'
import { getToken } from '#app/.server/auth.ts'
import { readPurchases, rememberPurchase, visitorId } from '#app/.server/purchases.ts'
import { readForm, serviceUnavailable } from '#app/.server/request.ts'
import { formatDateTime, linkParts } from '#app/utils/format.ts'

export const handle: RouteHandle = { hydrate: false }

/** Paid content, and an order of this browser: no cache may keep a copy (issue 6). */
const PRIVATE = 'private, no-store'

/**
 * The order of this page's visitor: its number and status, and whether it can reach the order's
 * after-sales chat — as the buyer's account, or as the browser that paid (its buyer key, decision 102).
 */
type OrderView = { orderNo: string; status: PaymentStatus; chat: boolean }

/**
 * The share page (SPEC §2 `/share/{unicode}`, title = unicode). Shows what is for sale — never the
 * content — until the visitor's order is paid; then the content. While an order waits for the gateway
 * the page reloads every second (SPEC §4 polling), with no client JavaScript.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const unicode = params.unicode ?? ''
  if (!UNICODE_PATTERN.test(unicode)) throw data({ key: 'public.shareNotFound' }, { status: 404 })
  const url = new URL(request.url)
  const token = await getToken(request)
  const visitor = await visitorId(request)
  // What this page shows depends on who asks (their order, their session): never stored by a cache.
  const headers = new Headers({ 'cache-control': PRIVATE })
  if (visitor.setCookie) headers.append('set-cookie', visitor.setCookie)

  const byCode = (withToken: boolean) =>
    api(request, shareApi.lookup, { query: { unicode }, token: withToken ? token : null, headers: { 'x-visitor-id': visitor.header } })
  // null: not found by its code — a deleted share, which its buyers still open by their order number.
  let share: PublicShare | null = null
  try {
    share = await byCode(true).catch((e: unknown) => {
      // A dead session must not hide a public page: look again as a visitor.
      if (e instanceof ApiError && e.status === 401 && token) return byCode(false)
      throw e
    })
  } catch (e) {
    if (e instanceof ApiError && e.unreachable) throw serviceUnavailable()
    if (!(e instanceof ApiError) || e.status !== 404) throw e
  }

  const asked = url.searchParams.get('order')
  const kept = (await readPurchases(request))[unicode]
  const orderNo = asked && ORDER_NO_PATTERN.test(asked) ? asked : kept?.orderNo
  // The key only for the order this browser created: it makes this look the buyer's (decision 102).
  const buyerKey = kept && kept.orderNo === orderNo ? kept.buyerKey : null
  let order: OrderView | null = null
  // The buyer of a dead link (issue 25): known dead, when the seller was told, its refund.
  let deadLink: DeadLinkNotice | null = share?.dead_link ?? null
  let content = share?.content !== undefined ? { content: share.content, extraction_code: share.extraction_code ?? null } : null
  if (orderNo) {
    try {
      const bought = await api(request, shareApi.lookup, {
        query: { third_party_trade_no: orderNo },
        token,
        headers: { 'x-visitor-id': visitor.header, ...(buyerKey ? { [BUYER_KEY_HEADER]: buyerKey } : {}) },
      })
      if (bought.unicode === unicode) {
        order = { orderNo, status: bought.payment_status ?? 'Pending', chat: Boolean(buyerKey) || share?.buyer_order_no === orderNo }
        if (bought.content !== undefined) content = { content: bought.content, extraction_code: bought.extraction_code ?? null }
        if (bought.dead_link) deadLink = bought.dead_link
        share ??= bought
        const remembered = await rememberPurchase(request, unicode, { orderNo, buyerKey })
        if (remembered) headers.append('set-cookie', remembered)
      }
    } catch (e) {
      if (e instanceof ApiError && e.unreachable) throw serviceUnavailable()
      if (!(e instanceof ApiError) || (e.status !== 404 && e.status !== 422)) throw e
    }
  }
  if (!share) throw data({ key: 'public.shareNotFound' }, { status: 404, headers })
  // A signed-in buyer with no order in this browser: its own order, reached through its account.
  if (!order && share.buyer_order_no) order = { orderNo: share.buyer_order_no, status: 'Completed', chat: true }
  const {
    content: _c,
    extraction_code: _e,
    payment_status: _p,
    third_party_trade_no: _t,
    buyer_order_no: _b,
    free_unlocks_left: unlocksLeft,
    dead_link: _d,
    ...publicShare
  } = share
  // A signed-in subscriber: today's free unlocks left on this share (none when it is not open to them).
  const unlock = content || unlocksLeft === undefined ? null : { left: unlocksLeft }
  const unlocked = Boolean(content) && url.searchParams.has('unlocked')
  return data({ share: publicShare, content, order, unlock, unlocked, deadLink, loggedIn: Boolean(token) }, { headers })
}

export async function action({ request, params }: ActionFunctionArgs) {
  const unicode = params.unicode ?? ''
  if (!UNICODE_PATTERN.test(unicode)) throw data({ key: 'public.shareNotFound' }, { status: 404 })
  const form = await readForm(request, ['unlock', 'dead-link-refund'])
  const token = await getToken(request)
  if (form.get('intent') === 'unlock') return unlockFree(request, unicode, token)
  if (form.get('intent') === 'dead-link-refund') return askDeadLinkRefund(request, unicode, token, String(form.get('orderNo') ?? ''))
  const method = PAYMENT_METHODS.find((m) => m === form.get('paymentMethod'))
  if (!method) return data({ error: 'public.chooseMethod' }, { status: 400 })
  try {
    const created = await api(request, ordersApi.create, { token, body: { unicode, paymentMethod: method } })
    const headers = new Headers()
    // The buyer key goes only to this browser's signed, httpOnly cookie (decision 102).
    const remembered = await rememberPurchase(request, unicode, { orderNo: created.orderNo, buyerKey: created.buyerKey ?? null })
    if (remembered) headers.append('set-cookie', remembered)
    // WeChat Native: our page with the QR code; Alipay (and the sandbox): the gateway's pay page.
    const to = method === 'WeChat' ? `/share/${unicode}/pay?order=${created.orderNo}` : (created.payUrl ?? `/share/${unicode}?order=${created.orderNo}`)
    return redirect(to, { headers })
  } catch (e) {
    if (e instanceof ApiError && e.status < 500) return data({ error: e.msg }, { status: 400 })
    if (e instanceof ApiError) return data({ error: e.status === 502 ? 'public.gatewayError' : 'errors.requestError' }, { status: 502 })
    throw e
  }
}

/**
 * A subscriber's free unlock (issue 8): POST /api/subscriptions/unlock, then this page again, which now
 * shows the content (the unlock is a completed zero-amount order of the signed-in user).
 */
async function unlockFree(request: Request, unicode: string, token: string | null) {
  if (!token) return data({ error: 'subscriptions.unlock.loginFirst', intent: 'unlock' as const }, { status: 400 })
  try {
    await api(request, subscriptionsApi.unlock, { token, body: { unicode } })
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return data({ error: 'subscriptions.unlock.loginFirst', intent: 'unlock' as const }, { status: 400 })
    if (e instanceof ApiError && e.status < 500) return data({ error: e.msg, intent: 'unlock' as const }, { status: 400 })
    if (e instanceof ApiError) return data({ error: e.unreachable ? 'errors.requestError' : 'errors.error', intent: 'unlock' as const }, { status: 502 })
    throw e
  }
  return redirect(`/share/${unicode}?unlocked=1`)
}

/**
 * The buyer's one-click refund request for a dead link (issue 25): as its account, or as the browser
 * that paid (the buyer key of this browser's purchase cookie, decision 102). Back to the page after.
 */
async function askDeadLinkRefund(request: Request, unicode: string, token: string | null, orderNo: string) {
  if (!ORDER_NO_PATTERN.test(orderNo)) return data({ error: 'validation.orderNo', intent: 'dead-link-refund' as const }, { status: 400 })
  const kept = (await readPurchases(request))[unicode]
  const buyerKey = kept && kept.orderNo === orderNo ? kept.buyerKey : null
  try {
    await api(request, linksApi.refund, { token, body: { orderNo }, headers: buyerKey ? { [BUYER_KEY_HEADER]: buyerKey } : {} })
  } catch (e) {
    if (e instanceof ApiError && e.status < 500) return data({ error: e.msg, intent: 'dead-link-refund' as const }, { status: 400 })
    if (e instanceof ApiError) return data({ error: e.unreachable ? 'errors.requestError' : 'errors.error', intent: 'dead-link-refund' as const }, { status: 502 })
    throw e
  }
  return redirect(`/share/${unicode}?order=${orderNo}`)
}

/** What the buyer of a dead link sees: the link is known dead, since when the seller knows, and its refund. */
function DeadLink({ notice, error }: { notice: DeadLinkNotice; error: string | null }) {
  const { t } = useTranslation()
  return (
    <section className="ps-alert ps-alert-bad" aria-labelledby="dead-link-title">
      <p id="dead-link-title" style={{ margin: 0 }}>
        <b>{t('public.deadLink.title')}</b>
      </p>
      <p style={{ margin: '4px 0 0' }}>{t('public.deadLink.told', { at: formatDateTime(notice.seller_told_at) })}</p>
      {notice.refund === 'available' ? (
        <Form method="post" style={{ marginTop: 8 }}>
          <input type="hidden" name="orderNo" value={notice.order_no} />
          <button type="submit" name="intent" value="dead-link-refund" className="ps-btn ps-btn-light">
            {t('public.deadLink.ask')}
          </button>
          <p className="ps-muted" style={{ margin: '6px 0 0' }}>
            {t('public.deadLink.askNote', { at: formatDateTime(notice.refund_due_at) })}
          </p>
        </Form>
      ) : (
        <p role="status" style={{ margin: '6px 0 0' }}>
          {t(`public.deadLink.${notice.refund}`, { at: formatDateTime(notice.refund_due_at) })}
        </p>
      )}
      {error ? (
        <p className="ps-error" role="alert">
          {t(error, { defaultValue: t('errors.error') })}
        </p>
      ) : null}
    </section>
  )
}

function Secret({ label, value, id }: { label: string; value: string; id: string }) {
  const { t } = useTranslation()
  return (
    <div>
      <div className="ps-row">
        <b>{label}</b>
        <button type="button" className="ps-btn ps-btn-light" data-copy={id} hidden style={{ padding: '2px 10px', fontSize: 13 }}>
          {t('public.copy')}
        </button>
      </div>
      <div className="ps-secret" id={id}>
        {linkParts(value).map((p, i) =>
          p.href ? (
            <a key={i} href={p.href} target="_blank" rel="noopener noreferrer nofollow">
              {p.text}
            </a>
          ) : (
            p.text
          ),
        )}
      </div>
    </div>
  )
}

/** The only script on the page: copy buttons (hidden without JavaScript, where the text is selectable). */
function CopyScript({ done }: { done: string }) {
  const nonce = useNonce()
  const js = `document.querySelectorAll('[data-copy]').forEach(function(b){b.hidden=false;b.onclick=function(){var t=document.getElementById(b.getAttribute('data-copy')).innerText;var ok=function(){b.textContent=${JSON.stringify(done)}};if(navigator.clipboard){navigator.clipboard.writeText(t).then(ok)}else{var a=document.createElement('textarea');a.value=t;document.body.appendChild(a);a.select();document.execCommand('copy');a.remove();ok()}}})`
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: js }} />
}

const STATE_ALERTS: Record<string, { key: string; tone: string }> = {
  under_review: { key: 'public.state.underReview', tone: 'ps-alert-warn' },
  reported_invalid: { key: 'public.state.takenDown', tone: 'ps-alert-bad' },
  violation: { key: 'public.state.banned', tone: 'ps-alert-bad' },
}

export default function SharePage() {
  const { t } = useTranslation()
  const { share, content, order, unlock, unlocked, deadLink, loggedIn } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const actionError = actionData && 'error' in actionData ? actionData : null
  const refundError = actionError && 'intent' in actionError && actionError.intent === 'dead-link-refund' ? actionError.error : null
  const unlockError = actionError && 'intent' in actionError && actionError.intent === 'unlock' ? actionError.error : null
  const buyError = actionError && !('intent' in actionError) ? actionError.error : null
  const typeLabel = t(`public.types.${share.type}`)
  const waiting = !content && order?.status === 'Pending'
  const state = STATE_ALERTS[share.status]
  return (
    <PublicShell loggedIn={loggedIn}>
      <article className="ps-card">
        <h1>{share.title}</h1>
        <span className="ps-tag">{typeLabel}</span>
        <ul className="ps-meta">
          <li>
            {t('public.seller')}: {share.user_name}
          </li>
          <li>
            {t('public.visits')}: {share.visit_count}
          </li>
          <li>
            {t('public.purchases')}: {share.purchase_count}
          </li>
          <li>
            {t('public.code')}: {share.unicode}
          </li>
          <li>{formatDateTime(share.created_at)}</li>
        </ul>
        <div className="ps-price">{formatYuan(yuanToFen(share.price))}</div>
        {deadLink ? <DeadLink notice={deadLink} error={refundError} /> : null}

        {content ? (
          <section aria-labelledby="content-title">
            <div className="ps-alert ps-alert-ok" role="status" id="content-title">
              {unlocked ? t('subscriptions.unlock.done') : order?.status === 'Completed' ? t('public.paid') : t('public.yourContent')}
            </div>
            <Secret id="secret-content" label={share.type === 'text' ? t('public.contentText') : t('public.contentLink')} value={content.content} />
            {content.extraction_code ? <Secret id="secret-code" label={t('public.extractionCode')} value={content.extraction_code} /> : null}
            {order ? (
              <p className="ps-muted">
                {t('public.orderNo')}: {order.orderNo} · {t('public.keepOrderNo')}
              </p>
            ) : null}
            {order?.chat ? (
              <p>
                <Link to={`/share/${share.unicode}/chat`}>{t('messages.afterSalesLink')}</Link>
              </p>
            ) : order ? (
              <p className="ps-muted">{t('messages.afterSalesNoProof')}</p>
            ) : null}
            <CopyScript done={t('common.copySuccess')} />
          </section>
        ) : waiting ? (
          <div className="ps-alert" role="status">
            <p style={{ margin: 0 }}>{t('public.waiting')}</p>
            <p className="ps-muted" style={{ margin: '4px 0 0' }}>
              {t('public.orderNo')}: {order.orderNo}
            </p>
            <p style={{ margin: '8px 0 0' }}>
              <Link to={`/share/${share.unicode}/pay?order=${order.orderNo}`}>{t('public.payAgain')}</Link>
            </p>
          </div>
        ) : (
          <>
            {order?.status === 'Failed' ? <div className="ps-alert ps-alert-warn">{t('public.orderFailed')}</div> : null}
            {order?.status === 'Refund' ? (
              <div className="ps-alert ps-alert-warn">
                {t('public.orderRefunded')} {order.chat ? <Link to={`/share/${share.unicode}/chat`}>{t('messages.afterSalesLink')}</Link> : null}
              </div>
            ) : null}
            {state ? <div className={`ps-alert ${state.tone}`}>{t(state.key)}</div> : null}
            {share.for_sale && unlock && unlock.left > 0 ? (
              <Form method="post" className="ps-alert ps-alert-ok">
                <button type="submit" name="intent" value="unlock" className="ps-btn ps-btn-block ps-btn-light">
                  {t('subscriptions.unlock.button', { count: unlock.left })}
                </button>
                <p className="ps-muted" style={{ margin: '6px 0 0' }}>
                  {t('subscriptions.unlock.note')}
                </p>
                {unlockError ? (
                  <p className="ps-error" role="alert">
                    {t(unlockError, { defaultValue: t('errors.error') })}
                  </p>
                ) : null}
              </Form>
            ) : share.for_sale && (unlock || unlockError) ? (
              // Today's free unlocks used up (or refused just now): only the buy form remains.
              <p className="ps-alert ps-alert-warn" role={unlockError ? 'alert' : undefined}>
                {unlockError ? t(unlockError, { defaultValue: t('errors.error') }) : t('subscriptions.unlock.usedUp')}
              </p>
            ) : null}
            {share.for_sale ? (
              <Form method="post">
                <fieldset className="ps-methods">
                  <legend>{t('public.payWith')}</legend>
                  <label className="ps-method">
                    <input type="radio" name="paymentMethod" value="Alipay" defaultChecked /> {t('public.alipay')}
                  </label>
                  <label className="ps-method">
                    <input type="radio" name="paymentMethod" value="WeChat" /> {t('public.wechat')}
                  </label>
                </fieldset>
                {buyError ? (
                  <p className="ps-error" role="alert">
                    {t(buyError, { defaultValue: t('errors.error') })}
                  </p>
                ) : null}
                <button type="submit" className="ps-btn ps-btn-block">
                  {t('public.buy', { price: formatYuan(yuanToFen(share.price)) })}
                </button>
                <p className="ps-muted">{t('public.buyNote')}</p>
              </Form>
            ) : share.link_fixing && !state ? (
              <div className="ps-alert ps-alert-warn">{t('public.state.linkFixing')}</div>
            ) : !state ? (
              <div className="ps-alert ps-alert-warn">{t('public.state.notForSale')}</div>
            ) : null}
          </>
        )}
        {share.status !== 'violation' ? (
          <p className="ps-muted" style={{ textAlign: 'right', margin: '12px 0 0' }}>
            <Link to={`/share/${share.unicode}/report`} rel="nofollow">
              {t('moderation.public.link')}
            </Link>
          </p>
        ) : null}
      </article>
    </PublicShell>
  )
}

export const headers: HeadersFunction = ({ loaderHeaders }) => ({ 'cache-control': loaderHeaders.get('cache-control') ?? PRIVATE })

export const meta: MetaFunction<typeof loader> = ({ data, params }) => {
  // The share's title first (issue 23: a tab or a text browser's title bar said only the code), then SPEC §2's code.
  const title = [data?.share?.title, params.unicode].filter(Boolean).join(' - ') || 'PayShare'
  const tags: ReturnType<MetaFunction> = [{ title }, { name: 'robots', content: 'noindex' }]
  // SPEC §4: while the order waits for its payment, look again every second.
  if (data && !data.content && data.order?.status === 'Pending') tags.push({ httpEquiv: 'refresh', content: '1' })
  return tags
}

export function ErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error)) {
    const key = (error.data as { key?: string } | null)?.key ?? (error.status === 404 ? 'public.shareNotFound' : 'pages.serverError')
    return <PublicError status={error.status} messageKey={key} />
  }
  return <PublicError status={500} messageKey="pages.serverError" />
}
