import { notifications } from '@mantine/notifications'
import { useFetcher } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { SettingsActionData } from '#app/routes/settings/route.tsx'
import { useStoredSettings } from './use-settings.ts'

/** The settings drawer's fetcher, by key: it outlives the drawer (closed while a change is on its way). */
export const SETTINGS_FETCHER = 'settings'

/**
 * SPEC §4: switching the server menu on says loading, then success or error. Kept in the layout, not in
 * the drawer: a drawer closed before the answer came back would leave "Loading the menu…" for ever.
 */
export function ServerMenuNotice() {
  const { t } = useTranslation()
  const settings = useStoredSettings()
  const fetcher = useFetcher<SettingsActionData>({ key: SETTINGS_FETCHER })
  const loadingMenu = fetcher.state !== 'idle' && fetcher.formData?.get('menuFromServer') === 'on' && !settings.menuFromServer
  const shown = useRef<unknown>(null)
  useEffect(() => {
    if (loadingMenu) notifications.show({ id: 'server-menu', loading: true, message: t('shell.menu.loading'), autoClose: false })
  }, [loadingMenu, t])
  useEffect(() => {
    const menu = fetcher.data?.menu
    if (fetcher.state !== 'idle' || !menu || shown.current === fetcher.data) return
    shown.current = fetcher.data
    notifications.update({ id: 'server-menu', loading: false, color: menu === 'loaded' ? 'green' : 'red', message: t(`shell.menu.${menu}`), autoClose: 5000 })
  }, [fetcher.state, fetcher.data, t])
  return null
}
