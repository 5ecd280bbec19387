import { type LoaderFunctionArgs } from '@remix-run/node'
import { ExceptionPage } from '~/components/feedback/error-boundary.tsx'

/** notFound: any unmatched path (SPEC §2), public. */
export async function loader(_: LoaderFunctionArgs) {
  throw new Response('Not Found', { status: 404 })
}

export const meta = () => [{ title: '404 - PayShare' }]

export default function NotFound() {
  return <ExceptionPage status={404} />
}

export function ErrorBoundary() {
  return <ExceptionPage status={404} />
}
