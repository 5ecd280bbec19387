import { type LoaderFunctionArgs } from '@remix-run/node'
import { Outlet, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import { menuForRole } from '#contract/menu.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { AppLayout } from '#app/components/layout/AppLayout.tsx'
import { requireUser } from '#app/.server/auth.ts'

/** The logged-in layout: the SPEC §2 guard runs here for every page below. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser({ request, context })
  return { user, menu: menuForRole(user.role) }
}

export default function AppRoute() {
  const { user, menu } = useLoaderData<typeof loader>()
  return (
    <AppLayout user={user} menu={menu}>
      <Outlet />
    </AppLayout>
  )
}

/** A page that failed below this layout keeps the header and the menu around the error (SPEC §8 texts). */
export function ErrorBoundary() {
  const data = useRouteLoaderData<typeof loader>('routes/_app')
  if (!data) return <GeneralErrorBoundary />
  return (
    <AppLayout user={data.user} menu={data.menu}>
      <GeneralErrorBoundary />
    </AppLayout>
  )
}
