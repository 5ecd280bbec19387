import { data, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node'
import { isRouteErrorResponse, useLoaderData, useRouteError } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ORDER_NO_PATTERN } from '#contract/codes.ts'
import { formatYuanAmount } from '#contract/money.ts'
import { ordersApi, type PaymentStatusView } from '#contract/orders.ts'
import { redirectTarget } from '#contract/redirects.ts'
import { PaymentPollScript } from '#app/components/orders/payment-poll.tsx'
import { PublicError, PublicShell } from '#app/components/layout/public-shell.tsx'
import { QrCode } from '#app/components/shares/qr-code.tsx'
import type { RouteHandle } from '#app/root.tsx'
import { ApiError, api } from '#app/.server/api.ts'
import { getToken } from '#app/.server/auth.ts'
import { getT } from '#app/.server/i18n.ts'
import { qrSvg } from '#app/.server/qr.ts'
import { serviceUnavailable } from '#app/.server/request.ts'

export const handle: RouteHandle = { hydrate: false }

/** A console path the API named (`/…`, never `//host` or a full URL): the only places this page sends a buyer. */
const consolePath = (p: string) => {
  const target = redirectTarget(p)
  return target.ok ? target.to : '/'
}
const isHttp = (u: string) => /^https?:\/\//i.test(u)

/**
 * `/pay/{orderNo}`: paying any order (a share, a channel, a package). WeChat Pay (Native): the QR code,
 * the amount, and a check every second — a tiny nonce'd script with JavaScript; without it the "I have
 * paid" link (no self-reload: it re-fetched the QR every second, WCAG 2.2.1, decision 129) — until the
 * order is paid (or over), then the order's own page (`return_path`). Alipay and
 * the sandbox: their pay page. A paid, failed or refunded order: straight to its page.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const orderNo = params.orderNo ?? ''
  if (!ORDER_NO_PATTERN.test(orderNo)) throw data({ key: 'public.orderNotFound' }, { status: 404 })
  let status: PaymentStatusView
  try {
    status = await api(request, ordersApi.paymentStatus, { query: { orderNo } })
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 422)) throw data({ key: 'public.orderNotFound' }, { status: 404 })
    if (e instanceof ApiError && e.unreachable) throw serviceUnavailable()
    throw e
  }
  const done = consolePath(status.return_path)
  const checkoutUrl = status.checkout_url
  if (status.payment_status !== 'Pending' || !checkoutUrl) throw redirect(done)
  if (status.paymentMethod !== 'WeChat') {
    if (isHttp(checkoutUrl)) throw redirect(checkoutUrl)
    throw redirect(done)
  }
  const t = await getT(request)
  return data(
    {
      title: `${t('public.payTitle')} - ${t('common.siteName')}`,
      orderNo,
      product: status.product_name,
      amount: status.amount,
      checkoutUrl,
      done,
      qr: await qrSvg(checkoutUrl, 220),
      loggedIn: Boolean(await getToken(request)),
    },
    { headers: { 'cache-control': 'private, no-store' } },
  )
}

export default function PayOrderPage() {
  const { t } = useTranslation()
  const { orderNo, product, amount, checkoutUrl, done, qr, loggedIn } = useLoaderData<typeof loader>()
  return (
    <PublicShell loggedIn={loggedIn}>
      <div className="ps-card" style={{ textAlign: 'center' }}>
        <h1>{t('public.wechatScan')}</h1>
        <p>{product}</p>
        <div className="ps-price">{formatYuanAmount(amount)}</div>
        <div className="ps-qr">
          <QrCode svg={qr} label={t('public.qrLabel')} size={220} />
        </div>
        <p className="ps-muted" role="status">
          {t('channels.pay.waiting')}
        </p>
        {isHttp(checkoutUrl) ? (
          <p>
            <a href={checkoutUrl} className="ps-btn ps-btn-light">
              {t('public.openPayPage')}
            </a>
          </p>
        ) : null}
        <p className="ps-muted">
          {t('public.orderNo')}: {orderNo}
        </p>
        <p>
          <a href={`/pay/${orderNo}`} className="ps-btn">
            {t('public.checkNow')}
          </a>
        </p>
      </div>
      <PaymentPollScript statusUrl={`/pay/${orderNo}/status`} doneUrl={done} />
    </PublicShell>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }, { name: 'robots', content: 'noindex' }]

export function ErrorBoundary() {
  const error = useRouteError()
  const key = isRouteErrorResponse(error) ? ((error.data as { key?: string } | null)?.key ?? 'public.orderNotFound') : 'pages.serverError'
  return <PublicError status={isRouteErrorResponse(error) ? error.status : 500} messageKey={key} />
}
