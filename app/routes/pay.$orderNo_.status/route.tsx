import { type LoaderFunctionArgs } from '@remix-run/node'
import { ORDER_NO_PATTERN } from '#contract/codes.ts'
import { ordersApi } from '#contract/orders.ts'
import { ApiError, api } from '#app/.server/api.ts'

/** GET /pay/{orderNo}/status — JSON for the pay page's 1-second check. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const orderNo = params.orderNo ?? ''
  if (!ORDER_NO_PATTERN.test(orderNo)) return Response.json({ status: 'NotFound' }, { status: 404 })
  try {
    const s = await api(request, ordersApi.paymentStatus, { query: { orderNo } })
    return Response.json({ status: s.payment_status }, { headers: { 'cache-control': 'no-store' } })
  } catch (e) {
    if (e instanceof ApiError && e.status < 500) return Response.json({ status: 'NotFound' }, { status: 404 })
    throw e
  }
}
