import { Button, Group } from '@mantine/core'
import { Form, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { TextSeparated } from './text-mode.tsx'

/**
 * zh-CN / en-US switch: a plain form (works without JavaScript), stored in a cookie. A full page load
 * with JavaScript too: the browser holds only the current locale's catalogs (issue 11 JS budget).
 */
export function LocaleSwitch() {
  const { i18n, t } = useTranslation()
  const location = useLocation()
  const current = i18n.language
  return (
    <Form method="post" action="/locale" reloadDocument aria-label={t('common.language')}>
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <Group gap={4} wrap="nowrap">
        <TextSeparated>
          {(['zh-CN', 'en-US'] as const).map((lng) => (
            <Button
              key={lng}
              type="submit"
              name="locale"
              value={lng}
              size="compact-xs"
              variant={current === lng ? 'light' : 'subtle'}
              aria-pressed={current === lng}
              lang={lng}
            >
              {lng === 'zh-CN' ? '中文' : 'English'}
            </Button>
          ))}
        </TextSeparated>
      </Group>
    </Form>
  )
}
