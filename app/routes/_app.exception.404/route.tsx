import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { ExceptionPage } from '#app/components/feedback/error-boundary.tsx'
import { requireUser } from '#app/.server/auth.ts'
import { pageTitle } from '#app/.server/i18n.ts'

/** SPEC §2/§8: the 404 page, hidden from the menu. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser({ request, context })
  return { title: await pageTitle(request, 'pages.exception404') }
}

export default function Exception404() {
  return <ExceptionPage status={404} />
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
