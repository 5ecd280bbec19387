import { type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { requireUser } from '#app/.server/auth.ts'
import { env } from '#app/.server/env.ts'

/**
 * The menu's external online customer service (SPEC §2, logged in): one console URL for both menu
 * sources, sending the user on to the SUPPORT_URL of the console's environment. Unset: the entry is
 * not shown and this answers 404.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser({ request, context })
  if (!env.supportUrl) throw new Response('Not Found', { status: 404 })
  return redirect(env.supportUrl)
}
