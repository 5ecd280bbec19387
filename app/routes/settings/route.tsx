import { type ActionFunctionArgs, data, redirect } from '@remix-run/node'
import { menuApi } from '#contract/menu.ts'
import { api } from '#app/.server/api.ts'
import { getToken, safeRedirect } from '#app/.server/auth.ts'
import { readForm } from '#app/.server/request.ts'
import { getSettings, getTabs, serializeSettings, serializeTabs } from '#app/.server/settings.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { MENU_WIDTH, menuWidthRefused, settingsFromForm } from '#app/settings.ts'

export type SettingsActionData =
  { ok: true; menu: 'loaded' | 'failed' | null } | { ok: false; menu: null; error: { key: string; values: Record<string, string> } }

/**
 * POST /settings — the settings drawer (SPEC §3 App settings) and the tab bar's close buttons.
 * Without JavaScript the form posts here and comes back to the page with 'Save Success'; with it the
 * drawer submits each change through a fetcher (`instant`), which gets data back instead of a redirect.
 * Switching the server menu on loads it once here, so the drawer can say whether that worked (SPEC §4).
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request, ['close-tab', 'close-others'])
  const back = safeRedirect(form.get('redirectTo'))
  const intent = String(form.get('intent') ?? 'save')
  if (intent === 'close-tab' || intent === 'close-others') {
    const path = String(form.get('path') ?? '')
    const tabs = await getTabs(request)
    const kept = intent === 'close-tab' ? tabs.filter((t) => t !== path) : tabs.filter((t) => t === path)
    // Closing the tab of the page on screen goes to the tab before it (or the workplace).
    const current = new URL(back, 'http://x').pathname + new URL(back, 'http://x').search
    const to = intent === 'close-tab' && path === current ? (kept.at(-1) ?? '/dashboard/workplace') : back
    return redirect(to, { headers: { 'set-cookie': await serializeTabs(kept) } })
  }
  // A menu width that cannot be taken is refused whole: a clear message, no setting changed (decision 127).
  if (menuWidthRefused(form)) {
    const error = { key: 'shell.settings.menuWidthInvalid', values: { min: String(MENU_WIDTH.min), max: String(MENU_WIDTH.max) } }
    if (form.get('instant')) return data<SettingsActionData>({ ok: false, menu: null, error }, { status: 400 })
    const [path, query = ''] = back.split('?')
    const params = new URLSearchParams(query)
    params.set('settings', '')
    return redirectWithToast(request, `${path}?${params}`, { type: 'error', ...error })
  }
  const before = await getSettings(request)
  const settings = settingsFromForm(form, before)
  let menu: SettingsActionData['menu'] = null
  if (settings.menuFromServer && !before.menuFromServer) {
    const token = await getToken(request)
    menu = await api(request, menuApi.menu, { token })
      .then(() => 'loaded' as const)
      .catch(() => 'failed' as const)
  }
  const headers = { 'set-cookie': await serializeSettings(settings) }
  if (form.get('instant')) return data<SettingsActionData>({ ok: true, menu }, { headers })
  const key = menu === 'failed' ? 'shell.menu.failed' : menu === 'loaded' ? 'shell.menu.loaded' : 'shell.saveSuccess'
  return redirectWithToast(request, back, { type: menu === 'failed' ? 'error' : 'success', key }, { headers })
}

export const loader = () => redirect('/dashboard/workplace')
