import { type LoaderFunctionArgs } from '@remix-run/node'
import { Outlet } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { requireAdmin } from '#app/.server/auth.ts'

/** /system/* is admin-only (SPEC §6); every child loader re-checks through requireAdmin too. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin({ request, context })
  return null
}

export default function SystemLayout() {
  return <Outlet />
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
