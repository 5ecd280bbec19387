import { useFetchers, useNavigation } from '@remix-run/react'
import { useEffect, useRef } from 'react'
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

const PENDING = 'data-pending'
/** A submit counts as the start of the next busy period when that starts within this time. */
const SUBMIT_WINDOW_MS = 1_000

/**
 * The pending state of the submit button that started a submission, on every form of the console
 * (issue 11): from the moment Remix sends it until the page or fetcher is idle again, the button is
 * disabled (no double submit), `aria-busy` and shows a spinner (`[data-pending]` in styles.css). One
 * listener instead of a prop on each of the console's buttons. A submit that client-side validation
 * stops never makes Remix busy, so its button is left alone. Without JavaScript the browser's own
 * loading indicator does this.
 */
export function SubmitPending() {
  const navigation = useNavigation()
  const fetchers = useFetchers()
  const busy = navigation.state !== 'idle' || fetchers.some((f) => f.state === 'submitting')
  const last = useRef<{ button: HTMLElement; at: number } | null>(null)
  useEffect(() => {
    const onSubmit = (e: SubmitEvent) => {
      const form = e.target as HTMLFormElement
      const button = (e.submitter as HTMLElement | null) ?? form.querySelector<HTMLElement>('button[type=submit], button:not([type]), input[type=submit]')
      last.current = button ? { button, at: performance.now() } : null
    }
    document.addEventListener('submit', onSubmit, true)
    return () => document.removeEventListener('submit', onSubmit, true)
  }, [])
  useEffect(() => {
    if (busy) {
      const started = last.current
      last.current = null
      if (!started || performance.now() - started.at > SUBMIT_WINDOW_MS || started.button.hasAttribute('disabled')) return
      started.button.setAttribute(PENDING, '')
      started.button.setAttribute('aria-busy', 'true')
      started.button.setAttribute('disabled', '')
    } else {
      for (const el of document.querySelectorAll(`[${PENDING}]`)) {
        el.removeAttribute(PENDING)
        el.removeAttribute('aria-busy')
        el.removeAttribute('disabled')
      }
    }
  }, [busy])
  return null
}
