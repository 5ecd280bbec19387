import { data, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node'
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { formatYuan, yuanToFen } from '#contract/money.ts'
import { ORDER_NO_PATTERN, UNICODE_PATTERN } from '#contract/codes.ts'
import { ordersApi, type PaymentStatusView } from '#contract/orders.ts'
import { PaymentPollScript } from '#app/components/orders/payment-poll.tsx'
import { PublicError, PublicShell } from '#app/components/layout/public-shell.tsx'
import { QrCode } from '#app/components/shares/qr-code.tsx'
import type { RouteHandle } from '#app/root.tsx'
import { ApiError, api } from '#app/.server/api.ts'
import { getToken } from '#app/.server/auth.ts'
import { qrSvg } from '#app/.server/qr.ts'
import { serviceUnavailable } from '#app/.server/request.ts'

export const handle: RouteHandle = { hydrate: false }

/**
 * WeChat Pay (Native): the QR code to scan, waiting for the payment. Checks every second with a tiny
 * nonce'd script and goes to the share once paid; without JavaScript the "I have paid" link does it
 * (no self-reload: it re-fetched the QR every second, WCAG 2.2.1, decision 129).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const unicode = params.unicode ?? ''
  const orderNo = new URL(request.url).searchParams.get('order') ?? ''
  if (!UNICODE_PATTERN.test(unicode) || !ORDER_NO_PATTERN.test(orderNo)) throw data({ key: 'public.orderNotFound' }, { status: 404 })
  let status: PaymentStatusView
  try {
    status = await api(request, ordersApi.paymentStatus, { query: { orderNo } })
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 422)) throw data({ key: 'public.orderNotFound' }, { status: 404 })
    if (e instanceof ApiError && e.unreachable) throw serviceUnavailable()
    throw e
  }
  if (status.unicode !== unicode) throw data({ key: 'public.orderNotFound' }, { status: 404 })
  if (status.payment_status !== 'Pending' || !status.checkout_url) throw redirect(`/share/${unicode}?order=${orderNo}`)
  return {
    unicode,
    orderNo,
    amount: status.amount,
    method: status.paymentMethod,
    checkoutUrl: status.checkout_url,
    qr: await qrSvg(status.checkout_url, 220),
    loggedIn: Boolean(await getToken(request)),
  }
}

export default function PayPage() {
  const { t } = useTranslation()
  const { unicode, orderNo, amount, method, checkoutUrl, qr, loggedIn } = useLoaderData<typeof loader>()
  const done = `/share/${unicode}?order=${orderNo}`
  return (
    <PublicShell loggedIn={loggedIn}>
      <div className="ps-card" style={{ textAlign: 'center' }}>
        <h1>{method === 'WeChat' ? t('public.wechatScan') : t('public.payTitle')}</h1>
        <div className="ps-price">{formatYuan(yuanToFen(amount))}</div>
        <div className="ps-qr">
          <QrCode svg={qr} label={t('public.qrLabel')} size={220} />
        </div>
        <p className="ps-muted" role="status">
          {t('public.waiting')}
        </p>
        {/^https?:/i.test(checkoutUrl) ? (
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
          <Link to={done} className="ps-btn">
            {t('public.checkNow')}
          </Link>
        </p>
      </div>
      <PaymentPollScript statusUrl={`/share/${unicode}/status?order=${orderNo}`} doneUrl={done} />
    </PublicShell>
  )
}

export const meta: MetaFunction<typeof loader> = ({ params }) => [{ title: params.unicode ?? 'PayShare' }, { name: 'robots', content: 'noindex' }]

export function ErrorBoundary() {
  const error = useRouteError()
  const key = isRouteErrorResponse(error) ? ((error.data as { key?: string } | null)?.key ?? 'public.orderNotFound') : 'pages.serverError'
  return <PublicError status={isRouteErrorResponse(error) ? error.status : 500} messageKey={key} />
}
