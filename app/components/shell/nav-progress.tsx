import { useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'

/**
 * The top progress bar while a navigation or a form submission is under way (issue 11). Plain CSS (no
 * library): it creeps towards the end while pending and is gone when idle; the bar waits 150 ms before
 * showing so fast navigations do not flash it.
 */
export function NavProgress() {
  const { t } = useTranslation()
  const busy = useNavigation().state !== 'idle'
  if (!busy) return null
  return <div className="ps-nav-progress" role="progressbar" aria-label={t('shell.loading')} aria-busy="true" />
}
