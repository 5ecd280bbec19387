import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { callApi } from '~/.server/api.ts'
import { destroySession, getToken } from '~/.server/auth.ts'

/** SPEC §4: logout calls the server and always clears the session, even if the call fails. */
export async function action({ request }: ActionFunctionArgs) {
  const token = await getToken(request)
  if (token) await callApi(request, '/api/auth/logout', { method: 'POST', token }).catch(() => undefined)
  return redirect('/login', { headers: { 'set-cookie': await destroySession(request) } })
}

export const loader = () => redirect('/login')
