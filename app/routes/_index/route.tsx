import { type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node'
import { Form, isRouteErrorResponse, useLoaderData, useRouteError } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ordersApi } from '#contract/orders.ts'
import { PublicError, PublicShell } from '#app/components/layout/public-shell.tsx'
import type { RouteHandle } from '#app/root.tsx'
import { ApiError, api } from '#app/.server/api.ts'
import { getToken } from '#app/.server/auth.ts'
import { getT } from '#app/.server/i18n.ts'
import { parseLookup } from '#app/.server/purchases.ts'
import { serviceUnavailable } from '#app/.server/request.ts'

export const handle: RouteHandle = { hydrate: false }

/**
 * ShareSearchPage (SPEC §2 `/`): open a share by its 8-character code, a pasted share link, or an order
 * number (to reopen a purchase). A GET form, so it works without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const raw = url.searchParams.get('code')
  const t = await getT(request)
  const base = { title: `${t('public.searchTitle')} - ${t('common.siteName')}`, loggedIn: Boolean(await getToken(request)), code: raw ?? '', error: null as string | null }
  if (raw === null) return base
  const target = parseLookup(raw.slice(0, 300))
  if (!target) return { ...base, error: raw.trim() ? 'public.badCode' : 'public.emptyCode' }
  if (target.kind === 'share') return redirect(`/share/${target.unicode}`)
  try {
    // Only where the order's share is: its status, not its content (a look at the content is a reveal, decision 102).
    const order = await api(request, ordersApi.paymentStatus, { query: { orderNo: target.orderNo } })
    if (!order.unicode) return { ...base, error: 'public.orderNotFound' }
    return redirect(`/share/${order.unicode}?order=${target.orderNo}`)
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 422)) return { ...base, error: 'public.orderNotFound' }
    if (e instanceof ApiError && e.unreachable) throw serviceUnavailable()
    throw e
  }
}

export default function ShareSearchPage() {
  const { t } = useTranslation()
  const { loggedIn, code, error } = useLoaderData<typeof loader>()
  return (
    <PublicShell loggedIn={loggedIn}>
      <div className="ps-card">
        <h1>{t('public.searchTitle')}</h1>
        <p className="ps-muted">{t('public.searchIntro')}</p>
        <Form method="get" role="search">
          <label htmlFor="code" className="ps-muted">
            {t('public.codeLabel')}
          </label>
          <div className="ps-field">
            <input id="code" name="code" type="text" defaultValue={code} autoComplete="off" autoCapitalize="off" spellCheck={false} maxLength={300} placeholder={t('public.codePlaceholder')} aria-invalid={Boolean(error)} aria-describedby={error ? 'code-error' : undefined} />
            <button type="submit" className="ps-btn">
              {t('public.open')}
            </button>
          </div>
          {error ? (
            <p className="ps-error" id="code-error" role="alert">
              {t(error)}
            </p>
          ) : null}
        </Form>
      </div>
      <div className="ps-card">
        <p className="ps-muted" style={{ margin: 0 }}>
          {t('public.howItWorks')}
        </p>
      </div>
    </PublicShell>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data && 'title' in data ? data.title : 'PayShare' }]

export function ErrorBoundary() {
  const error = useRouteError()
  return <PublicError status={isRouteErrorResponse(error) ? error.status : 500} messageKey="pages.serverError" />
}
