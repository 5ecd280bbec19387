import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { safeRedirect } from '#app/.server/auth.ts'
import { readForm } from '#app/.server/request.ts'
import { localeCookie } from '#app/.server/session.ts'
import { resolveLocale } from '#app/i18n.ts'

/** POST /locale — stores the language choice and goes back (SPEC §9). */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request)
  const locale = resolveLocale(String(form.get('locale') ?? ''))
  return redirect(safeRedirect(form.get('redirectTo'), '/login'), {
    headers: { 'set-cookie': await localeCookie.serialize(locale) },
  })
}

export const loader = () => redirect('/')
