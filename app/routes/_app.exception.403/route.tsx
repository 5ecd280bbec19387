import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { ExceptionPage } from '#app/components/feedback/error-boundary.tsx'
import { requireAdmin } from '#app/.server/auth.ts'
import { pageTitle } from '#app/.server/i18n.ts'

/** SPEC §2: the 403 page is itself admin-only and hidden from the menu. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin({ request, context })
  return { title: await pageTitle(request, 'pages.exception403') }
}

export default function Exception403() {
  return <ExceptionPage status={403} />
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
