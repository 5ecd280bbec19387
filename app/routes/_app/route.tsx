import { data, type HeadersFunction, type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { Outlet, type ShouldRevalidateFunction, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import { MENU } from '#contract/menu.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { AppLayout } from '#app/components/layout/AppLayout.tsx'
import { guardTarget } from '#app/components/shell/menu-match.ts'
import { requireUser, WORKPLACE } from '#app/.server/auth.ts'
import { env } from '#app/.server/env.ts'
import { layoutMenu } from '#app/.server/layout.ts'
import { unreadCounts } from '#app/.server/messages.ts'
import { getSettings, getTabs, MAX_TABS, serializeTabs } from '#app/.server/settings.ts'
import { setFlash } from '#app/.server/toast.ts'

/**
 * The logged-in layout: the SPEC §2 guard runs here for every page below — the role's menu (static, or
 * `POST /api/user/menu` with the menuFromServer setting), the permission guard on it, and the tab bar's
 * list of visited pages (SPEC §3), kept in a cookie so it renders on the server and without JavaScript.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, token } = await requireUser({ request, context })
  const settings = await getSettings(request)
  const url = new URL(request.url)
  const { menu, menuFailed, serverMenu } = await layoutMenu(request, user, token)
  const denied = guardTarget({ pathname: url.pathname, role: user.role, menu: MENU, serverMenu: serverMenu ? menu : null })
  if (denied === 'role') throw redirect(WORKPLACE, { headers: { 'set-cookie': await setFlash(request, { toast: { type: 'error', key: 'pages.forbidden' } }) } })
  if (denied === 'menu') throw redirect('/exception/404')

  const headers = new Headers()
  let tabs = await getTabs(request)
  if (settings.tabBar) {
    // Not pages of their own: Remix's data requests and the open settings drawer (`?settings`).
    url.searchParams.delete('_data')
    url.searchParams.delete('settings')
    const here = url.pathname + url.search
    if (!tabs.includes(here)) {
      tabs = [...tabs, here].slice(-MAX_TABS)
      headers.append('set-cookie', await serializeTabs(tabs))
    }
  }
  const supportOutside = env.supportUrl !== null
  return data({ user, menu, menuFailed, tabs: settings.tabBar ? tabs : [], unread: await unreadCounts(request, token), supportOutside }, { headers })
}

/**
 * Every signed-in page is the user's own and changes under them (a language switch, a queue worked
 * through): no cache keeps it, and no back/forward or text browser shows a stale copy (issue 23). The
 * pages below export no `headers` of their own, so Remix uses this one for them all.
 */
export const headers: HeadersFunction = () => ({ 'cache-control': 'private, no-store' })

/** The tab bar follows every navigation, so the layout's data does too. */
export const shouldRevalidate: ShouldRevalidateFunction = () => true

export default function AppRoute() {
  const layout = useLoaderData<typeof loader>()
  return (
    <AppLayout {...layout}>
      <Outlet />
    </AppLayout>
  )
}

/** A page that failed below this layout keeps the header and the menu around the error (SPEC §8 texts). */
export function ErrorBoundary() {
  const layout = useRouteLoaderData<typeof loader>('routes/_app')
  if (!layout) return <GeneralErrorBoundary />
  return (
    <AppLayout {...layout}>
      <GeneralErrorBoundary />
    </AppLayout>
  )
}
