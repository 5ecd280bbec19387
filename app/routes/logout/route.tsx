import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { authApi } from '#contract/auth.ts'
import { api } from '#app/.server/api.ts'
import { destroySession, getToken } from '#app/.server/auth.ts'
import { readForm } from '#app/.server/request.ts'

/** SPEC §4: logout calls the server and always clears the session, even if the call fails. */
export async function action({ request }: ActionFunctionArgs) {
  // Remix checks the origin of page actions only; this route has no page: readForm checks it.
  await readForm(request)
  const token = await getToken(request)
  if (token) await api(request, authApi.logout, { token }).catch(() => undefined)
  return redirect('/login', { headers: { 'set-cookie': await destroySession(request) } })
}

export const loader = () => redirect('/login')
