import { Form, Link, useLocation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { RETRY_SECONDS } from '../feedback/error-boundary.tsx'
import { SkipLink, TextSeparated } from './text-mode.tsx'

/** Frame of the visitor pages: plain HTML, no Mantine, no client JavaScript. */
export function PublicShell({ children, loggedIn }: { children: ReactNode; loggedIn?: boolean }) {
  const { t, i18n } = useTranslation()
  const location = useLocation()
  return (
    <>
      <SkipLink label={t('common.skipToMain')} />
      <header className="ps-top">
        <div className="ps-bar">
          <Link to="/" className="ps-brand">
            {t('common.siteName')}
          </Link>
          <nav className="ps-nav">
            <Form method="post" action="/locale" className="ps-lng" aria-label={t('common.language')}>
              <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
              <TextSeparated>
                <button type="submit" name="locale" value="zh-CN" lang="zh-CN" aria-pressed={i18n.language === 'zh-CN'}>
                  中文
                </button>
                <button type="submit" name="locale" value="en-US" lang="en-US" aria-pressed={i18n.language === 'en-US'}>
                  English
                </button>
              </TextSeparated>
            </Form>
            <Link to={loggedIn ? '/dashboard/workplace' : '/login'}>{loggedIn ? t('menu.workplace') : t('auth.login')}</Link>
          </nav>
        </div>
      </header>
      <main className="ps-main" id="main" tabIndex={-1}>
        {children}
      </main>
      <footer className="ps-foot">
        <span>© PayShare</span>
        <Link to="/agreement/user-agreement">{t('pages.agreement.userAgreement')}</Link>
        <Link to="/agreement/user-privacy">{t('pages.agreement.privacy')}</Link>
        <Link to="/agreement/exemptionagree">{t('pages.agreement.exemption')}</Link>
      </footer>
    </>
  )
}

/** Error boundary content for visitor pages (the root's Mantine one cannot render here). */
export function PublicError({ status, messageKey, loggedIn }: { status: number; messageKey: string; loggedIn?: boolean }) {
  const { t } = useTranslation()
  if (status === 503) return <PublicUnavailable />
  return (
    <PublicShell loggedIn={loggedIn}>
      <div className="ps-card ps-err" role="alert">
        <b>{status}</b>
        <p>{t(messageKey)}</p>
        <Link to="/" className="ps-btn ps-btn-light">
          {t('public.backHome')}
        </Link>
      </div>
    </PublicShell>
  )
}

/**
 * 503: the API did not answer. These pages run no JavaScript, so a meta refresh tries again by itself;
 * the link does it at once.
 */
function PublicUnavailable() {
  const { t } = useTranslation()
  const location = useLocation()
  return (
    <PublicShell>
      <meta httpEquiv="refresh" content={String(RETRY_SECONDS)} />
      <div className="ps-card ps-err" role="alert">
        <b>503</b>
        <p>{t('errors.serviceUnavailable')}</p>
        <p className="ps-muted">{t('errors.serviceUnavailableText')}</p>
        <a href={location.pathname + location.search} className="ps-btn ps-btn-light">
          {t('pages.retry')}
        </a>
      </div>
    </PublicShell>
  )
}
